"""Summary statistics for CSV files."""

__version__ = "0.1.0"

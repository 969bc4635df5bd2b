"""minisql: a tiny SQL engine over CSV files."""

__version__ = "0.1.0"

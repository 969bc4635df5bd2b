"""ledgerlite: plain-text double-entry accounting."""

__version__ = "0.1.0"

"""realcli: run and audit long-horizon agent benchmarks (LongCLI-Bench and WeaveBench style)."""

__version__ = "0.1.0"
__all__ = ["__version__"]

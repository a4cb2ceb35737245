"""pbntool: read, validate, rescore and convert contract bridge records."""

__version__ = "0.1.0"

"""Differential testing of SQE against DuckDB over the same Parquet files (TPC-H)."""

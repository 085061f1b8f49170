#!/usr/bin/env python3
"""Writes the small Parquet fixtures of tests/sql/data (checked in; rerun only to change
them). The tests read them as read_parquet('${SQE_TEST_DATA}/<name>.parquet').

Run with tests/peers/.venv/bin/python (has duckdb).
"""

from pathlib import Path

import duckdb

DATA = Path(__file__).resolve().parents[1] / "data"

FIXTURES = {
    # 8 people; NULL age and city on some rows.
    "people": """
        SELECT * FROM (VALUES
          (1, 'Alice', 34, 'Berlin', 5200.50::DECIMAL(10,2), DATE '1990-04-12', true),
          (2, 'Bob', 27, 'Paris', 4100.00::DECIMAL(10,2), DATE '1997-11-03', false),
          (3, 'Carol', NULL, 'Berlin', 6100.25::DECIMAL(10,2), DATE '1985-01-30', true),
          (4, 'Dave', 45, NULL, 3900.75::DECIMAL(10,2), DATE '1979-07-21', NULL),
          (5, 'Eve', 29, 'Rome', NULL, DATE '1995-02-28', false),
          (6, 'Frank', 52, 'Paris', 7300.00::DECIMAL(10,2), DATE '1972-12-31', true),
          (7, 'Grace', 38, 'Rome', 5600.10::DECIMAL(10,2), NULL, true),
          (8, 'Heidi', 27, 'Berlin', 4800.00::DECIMAL(10,2), DATE '1997-06-15', false)
        ) t(id, name, age, city, salary, born, active)
    """,
    # 12 sales of the people above (person 9 does not exist; NULL person on one row).
    "sales": """
        SELECT * FROM (VALUES
          (100, 1, 'book', 2, 12.50::DECIMAL(8,2), DATE '2024-01-05', 1.5::DOUBLE),
          (101, 1, 'pen', 10, 1.20::DECIMAL(8,2), DATE '2024-01-05', 0.25::DOUBLE),
          (102, 2, 'book', 1, 12.50::DECIMAL(8,2), DATE '2024-02-11', 1.5::DOUBLE),
          (103, 3, 'lamp', 1, 40.00::DECIMAL(8,2), DATE '2024-02-29', 3.75::DOUBLE),
          (104, 3, 'pen', 5, 1.20::DECIMAL(8,2), DATE '2024-03-01', 0.25::DOUBLE),
          (105, 5, 'desk', 1, 199.99::DECIMAL(8,2), DATE '2024-03-15', 12.0::DOUBLE),
          (106, 6, 'book', 3, 11.00::DECIMAL(8,2), DATE '2024-04-01', 1.5::DOUBLE),
          (107, 6, 'lamp', 2, 38.50::DECIMAL(8,2), DATE '2024-04-20', 3.75::DOUBLE),
          (108, 9, 'pen', 20, 1.00::DECIMAL(8,2), DATE '2024-05-02', 0.25::DOUBLE),
          (109, NULL, 'book', 1, 12.50::DECIMAL(8,2), DATE '2024-05-03', NULL),
          (110, 8, 'desk', 1, 210.00::DECIMAL(8,2), DATE '2024-06-30', 12.0::DOUBLE),
          (111, 8, 'pen', NULL, 1.20::DECIMAL(8,2), NULL, 0.25::DOUBLE)
        ) t(id, person_id, item, qty, price, sold, weight)
    """,
    # 6 rows with list and map columns (UNNEST, cardinality, element_at): empty, NULL
    # and NULL-holding lists; a map per row.
    "lists": """
        SELECT * FROM (VALUES
          (1, [1, 2, 3]::BIGINT[], ['a', 'b'], MAP {'x': 1, 'y': 2}),
          (2, []::BIGINT[], ['c'], MAP {}::MAP(VARCHAR, INTEGER)),
          (3, NULL::BIGINT[], NULL::VARCHAR[], NULL::MAP(VARCHAR, INTEGER)),
          (4, [4, NULL, 5]::BIGINT[], ['d', 'e', 'f'], MAP {'z': NULL::INTEGER}),
          (5, [6]::BIGINT[], []::VARCHAR[], MAP {'x': 3}),
          (6, [7, 8]::BIGINT[], [NULL, 'g'], MAP {'y': 4, 'w': 5})
        ) t(id, nums, tags, attrs)
    """,
}


def main() -> None:
    DATA.mkdir(parents=True, exist_ok=True)
    con = duckdb.connect()
    for name, sql in FIXTURES.items():
        con.execute(f"COPY ({sql}) TO '{DATA / (name + '.parquet')}' (FORMAT parquet)")
        print(DATA / f"{name}.parquet")


if __name__ == "__main__":
    main()

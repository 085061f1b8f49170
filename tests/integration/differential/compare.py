"""How a result of SQE (sqe-shell --format jsonl) is compared with DuckDB's for the same
query. The rules:

* Same number of rows. Rows are compared in order when the query's outermost SELECT has an
  ORDER BY (queries in the corpus order by enough columns to make it total); otherwise both
  sides are sorted first with one key that treats numbers as numbers.
* NULL only equals NULL; booleans and integers exactly; strings exactly.
* Decimals: SQE prints a decimal(p,s) as a string with exactly s digits. DuckDB's value is
  rounded half away from zero to s digits and the two must be equal as exact decimal
  strings. When DuckDB computed a double where Trino keeps a decimal (avg, decimal
  division), a rounding that lands on the other side of a half is also accepted if the
  values are within the float tolerance below.
* Doubles: |a - b| <= 1e-9 * max(|a|, |b|), or both within 1e-12 of zero; NaN equals NaN,
  infinities equal themselves (SQE prints them as "NaN", "Infinity", "-Infinity").
* Dates as ISO strings ("2024-01-31"); timestamps as "YYYY-MM-DD HH:MM:SS[.fff]" with
  trailing fractional zeros ignored.
"""

from __future__ import annotations

import datetime
import decimal
import json
import math
import re

FLOAT_RELATIVE_TOLERANCE = 1e-9
FLOAT_ABSOLUTE_TOLERANCE = 1e-12

_DECIMAL_TEXT = re.compile(r"^-?\d+(\.\d+)?$")
_SPECIAL_FLOATS = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}


def parse_jsonl(text: str) -> list[list]:
    """The rows of sqe-shell's --format jsonl output (one JSON array per line)."""
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def _floats_close(a: float, b: float) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    diff = abs(a - b)
    return diff <= FLOAT_ABSOLUTE_TOLERANCE or \
        diff <= FLOAT_RELATIVE_TOLERANCE * max(abs(a), abs(b))


def _round_half_up(value: decimal.Decimal, scale: int) -> decimal.Decimal:
    return value.quantize(decimal.Decimal(1).scaleb(-scale), rounding=decimal.ROUND_HALF_UP)


def _trim_time(text: str) -> str:
    text = text.replace("T", " ")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def values_equal(sqe, duck) -> bool:
    """Whether SQE's JSON value `sqe` matches DuckDB's Python value `duck` (rules above)."""
    if sqe is None or duck is None:
        return sqe is None and duck is None
    if isinstance(duck, bool) or isinstance(sqe, bool):
        return isinstance(sqe, bool) and isinstance(duck, bool) and sqe == duck
    if isinstance(duck, datetime.datetime):
        if duck.tzinfo is not None:
            duck = duck.astimezone(datetime.timezone.utc).replace(tzinfo=None)
        return isinstance(sqe, str) and \
            _trim_time(sqe.removesuffix(" UTC")) == _trim_time(duck.isoformat(sep=" "))
    if isinstance(duck, datetime.date):
        return sqe == duck.isoformat()
    if isinstance(duck, str):
        return sqe == duck
    if isinstance(duck, (int, decimal.Decimal, float)):
        if isinstance(sqe, str) and sqe in _SPECIAL_FLOATS:
            return isinstance(duck, float) and _floats_close(_SPECIAL_FLOATS[sqe], duck)
        if isinstance(sqe, str) and _DECIMAL_TEXT.match(sqe):
            sqe_dec = decimal.Decimal(sqe)
            scale = len(sqe.split(".")[1]) if "." in sqe else 0
            duck_dec = decimal.Decimal(repr(duck)) if isinstance(duck, float) \
                else decimal.Decimal(duck)
            if _round_half_up(duck_dec, scale) == sqe_dec:
                return True
            # Trino kept a decimal where DuckDB computed a double (or more digits): allow
            # a half-way rounding difference of one unit in the last place.
            return abs(duck_dec - sqe_dec) <= decimal.Decimal(1).scaleb(-scale) and \
                _floats_close(float(sqe_dec), float(duck_dec))
        if isinstance(sqe, int) and not isinstance(duck, float):
            return decimal.Decimal(sqe) == decimal.Decimal(duck)
        if isinstance(sqe, (int, float)):
            return _floats_close(float(sqe), float(duck))
        return False
    return sqe == duck


def _sort_key_value(value):
    if value is None:
        return (0, 0.0, "")
    if isinstance(value, bool):
        return (1, float(value), "")
    if isinstance(value, (int, float, decimal.Decimal)):
        return (1, float(value), "")
    if isinstance(value, str):
        if value in _SPECIAL_FLOATS:
            return (1, _SPECIAL_FLOATS[value], "")
        if _DECIMAL_TEXT.match(value):
            return (1, float(value), "")
        return (2, 0.0, value)
    if isinstance(value, datetime.datetime):
        return (2, 0.0, _trim_time(value.isoformat(sep=" ")))
    if isinstance(value, datetime.date):
        return (2, 0.0, value.isoformat())
    return (3, 0.0, str(value))


def sort_rows(rows: list[list]) -> list[list]:
    def key(row):
        out = []
        for v in row:
            k = _sort_key_value(v)
            # NaN does not order: map it above every number.
            if isinstance(k[1], float) and math.isnan(k[1]):
                k = (k[0], math.inf, "NaN")
            out.append(k)
        return out
    return sorted(rows, key=key)


def strip_sql_literals(sql: str) -> str:
    """The SQL with string literals, quoted identifiers and comments blanked out."""
    sql = re.sub(r"--[^\n]*", " ", sql)
    sql = re.sub(r"/\*.*?\*/", " ", sql, flags=re.S)
    sql = re.sub(r"'(?:[^']|'')*'", "''", sql)
    sql = re.sub(r'"(?:[^"]|"")*"', '""', sql)
    return sql


def has_top_level_order_by(sql: str) -> bool:
    """Whether the outermost query ends with an ORDER BY (outside every parenthesis)."""
    text = strip_sql_literals(sql).lower()
    depth = 0
    top = []
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        top.append(ch if depth == 0 and ch not in "()" else " ")
    return re.search(r"\border\s+by\b", "".join(top)) is not None


def compare_results(sql: str, sqe_rows: list[list], duck_rows: list[tuple]) -> str | None:
    """None when the results match, else a short description of the first difference."""
    duck_rows = [list(r) for r in duck_rows]
    if len(sqe_rows) != len(duck_rows):
        return (f"row count differs: SQE {len(sqe_rows)}, DuckDB {len(duck_rows)}\n"
                f"SQE first rows: {sqe_rows[:5]}\nDuckDB first rows: {duck_rows[:5]}")
    ordered = has_top_level_order_by(sql)
    if not ordered:
        sqe_rows = sort_rows(sqe_rows)
        duck_rows = sort_rows(duck_rows)
    for index, (s, d) in enumerate(zip(sqe_rows, duck_rows)):
        if len(s) != len(d):
            return f"row {index}: SQE has {len(s)} columns, DuckDB {len(d)}"
        for column, (sv, dv) in enumerate(zip(s, d)):
            if not values_equal(sv, dv):
                return (f"{'ordered' if ordered else 'sorted'} row {index}, column {column}: "
                        f"SQE {sv!r} vs DuckDB {dv!r}\nSQE row: {s}\nDuckDB row: {d}")
    return None


def _json_like(value):
    """A Python value from an Arrow result in the form sqe-shell's jsonl prints it."""
    if isinstance(value, decimal.Decimal):
        return format(value, "f")
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        return value
    if isinstance(value, datetime.datetime):
        return value.isoformat(sep=" ")
    if isinstance(value, datetime.date):
        return value.isoformat()
    return value


def rows_from_arrow(table) -> list[list]:
    """The rows of a pyarrow Table fetched from SQE (Flight SQL), with every value in the
    form parse_jsonl() returns, so compare_results() applies unchanged."""
    columns = [table.column(i).to_pylist() for i in range(table.num_columns)]
    return [[_json_like(col[row]) for col in columns] for row in range(table.num_rows)]

#!/usr/bin/env python3
"""Fills in or checks the expected results of SQL logic test files with DuckDB.

Used when authoring tests/sql/**/*.test: never capture expected results from SQE itself.
Every record runs in DuckDB (one fresh in-memory database per file, time zone UTC), with
the .test file's Trino SQL, or with the DuckDB spelling given in the comment lines right
above the record:

    # duckdb: SELECT 7 // 2            (DuckDB's SQL for this record; several such lines
                                        are joined with newlines)
    # by-hand: <why>                   (expected result worked out by hand: DuckDB does not
                                        run the record, the tool leaves it alone)

Modes:
    expected_from_duckdb.py FILE...          check: report records whose expected block
                                             differs from DuckDB (exit 1 if any)
    expected_from_duckdb.py --fill FILE...   rewrite the expected blocks of query records
                                             from DuckDB (by-hand records are kept)
    --list-by-hand                           print every by-hand record and its reason

Values are rendered like tests/sql/runner/value_text.h (true/false, decimals with their
scale, doubles as Python repr, '' as (empty), NULL). A `statement error` record whose SQL
DuckDB accepts is reported unless it is by-hand.

Run it with tests/peers/.venv/bin/python (has duckdb).
"""

from __future__ import annotations

import argparse
import datetime
import decimal
import math
import re
import sys
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import duckdb

REPO_ROOT = Path(__file__).resolve().parents[3]
DATA_DIR = REPO_ROOT / "tests" / "sql" / "data"


@dataclass
class Record:
    kind: str  # "statement ok", "statement error", "query", "other"
    header_line: int  # 0-based index of the header line
    sql_lines: list[str] = field(default_factory=list)
    types: str = ""
    sort_mode: str = "nosort"
    expected: list[str] = field(default_factory=list)
    # 0-based [start, end) of the expected lines (after ----), or None without ----.
    expected_span: tuple[int, int] | None = None
    duckdb_sql: list[str] = field(default_factory=list)
    by_hand: str | None = None

    @property
    def sql(self) -> str:
        return "\n".join(self.sql_lines)


def parse(lines: list[str]) -> list[Record]:
    records: list[Record] = []
    comments: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            comments = []
            i += 1
            continue
        if line.startswith("#"):
            comments.append(line[1:].strip())
            i += 1
            continue
        words = line.split()
        if words[0] not in ("statement", "query"):
            comments = []
            i += 1
            continue
        rec = Record(kind="query" if words[0] == "query" else f"statement {words[1]}",
                     header_line=i)
        if words[0] == "query":
            rec.types = words[1]
            rec.sort_mode = words[2] if len(words) > 2 else "nosort"
        for c in comments:
            if c.startswith("duckdb:"):
                rec.duckdb_sql.append(c[len("duckdb:"):].strip())
            elif c.startswith("by-hand"):
                rec.by_hand = c[len("by-hand"):].lstrip(":").strip() or "by hand"
        comments = []
        i += 1
        while i < len(lines) and lines[i].strip() and lines[i] != "----":
            rec.sql_lines.append(lines[i])
            i += 1
        if i < len(lines) and lines[i] == "----":
            i += 1
            start = i
            while i < len(lines) and lines[i] != "":
                rec.expected.append(lines[i])
                i += 1
            rec.expected_span = (start, i)
        records.append(rec)
    return records


def trim_fraction(text: str) -> str:
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def render(value) -> str:
    """One value as tests/sql/runner/value_text.h renders it."""
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        return repr(value)
    if isinstance(value, decimal.Decimal):
        return format(value, "f")
    if isinstance(value, str):
        return value if value else "(empty)"
    if isinstance(value, datetime.datetime):
        if value.tzinfo is not None:
            value = value.astimezone(datetime.timezone.utc).replace(tzinfo=None)
            return trim_fraction(value.isoformat(sep=" ")) + " UTC"
        return trim_fraction(value.isoformat(sep=" "))
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, datetime.time):
        return trim_fraction(value.isoformat())
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value).hex()
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, list):
        return "[" + ", ".join("NULL" if v is None else (v if isinstance(v, str) else render(v))
                               for v in value) + "]"
    if isinstance(value, dict):
        if set(value.keys()) == {"key", "value"} and isinstance(value["key"], list):
            return "{" + ", ".join(f"{render(k)}={render(v)}"
                                   for k, v in zip(value["key"], value["value"])) + "}"
        return "{" + ", ".join(f"'{k}': {render(v)}" for k, v in value.items()) + "}"
    return str(value)


def type_letter(duck_type) -> str:
    name = str(duck_type).upper()
    if name in ("TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT",
                "USMALLINT", "UINTEGER", "UBIGINT"):
        return "I"
    if name in ("FLOAT", "DOUBLE") or name.startswith("DECIMAL"):
        return "R"
    return "T"


def values_match(expected: str, actual: str) -> bool:
    if expected == actual:
        return True
    try:
        e, a = float(expected), float(actual)
    except ValueError:
        return False
    if "." not in expected + actual and "e" not in (expected + actual).lower():
        return False  # integers must match exactly
    return abs(e - a) <= max(1e-12, 1e-9 * max(abs(e), abs(a)))


def sort_rows(rows: list[list[str]], mode: str) -> list[list[str]]:
    if mode == "rowsort":
        return sorted(rows)
    if mode == "valuesort":
        return sorted([v] for row in rows for v in row)
    return rows


def substitute(sql: str) -> str:
    return sql.replace("${SQE_TEST_DATA}", str(DATA_DIR))


class FileRun:
    def __init__(self, path: Path, fill: bool):
        self.path = path
        self.fill = fill
        self.lines = path.read_text().split("\n")
        self.records = parse(self.lines)
        self.problems: list[str] = []
        self.replacements: list[tuple[Record, list[str], str | None]] = []
        self.con = duckdb.connect()
        self.con.execute("SET TimeZone = 'UTC'")

    def where(self, rec: Record) -> str:
        return f"{self.path}:{rec.header_line + 1}"

    def run(self) -> None:
        for rec in self.records:
            if rec.by_hand is not None:
                continue
            sql = substitute("\n".join(rec.duckdb_sql) if rec.duckdb_sql else rec.sql)
            try:
                cur = self.con.execute(sql)
                rows = cur.fetchall() if cur.description else []
                desc = cur.description or []
                error = None
            except duckdb.Error as e:  # noqa: PERF203
                error = str(e).split("\n")[0]
            if rec.kind == "statement ok":
                if error:
                    self.problems.append(f"{self.where(rec)}: DuckDB fails: {error}")
                continue
            if rec.kind == "statement error":
                if error is None:
                    self.problems.append(f"{self.where(rec)}: DuckDB accepts a statement "
                                         f"expected to fail (mark it by-hand with the reason)")
                continue
            if rec.kind != "query":
                continue
            if error:
                self.problems.append(f"{self.where(rec)}: DuckDB fails: {error}")
                continue
            actual = [[render(v) for v in row] for row in rows]
            types = rec.types
            if len(types) != len(desc):
                letters = "".join(type_letter(d[1]) for d in desc)
                if not self.fill:
                    self.problems.append(f"{self.where(rec)}: {len(types)} column type(s) "
                                         f"'{types}', DuckDB returns {len(desc)} ('{letters}')")
                types = letters
            actual_sorted = sort_rows(actual, rec.sort_mode)
            if self.fill:
                new_types = types if types != rec.types else None
                self.replacements.append((rec, ["\t".join(r) for r in actual_sorted], new_types))
                continue
            expected = [line.split("\t") for line in rec.expected]
            if len(desc) > 1 and expected and all(len(r) == 1 for r in expected) \
                    and len(expected) % len(desc) == 0 and len(expected) != len(actual):
                flat = [r[0] for r in expected]
                expected = [flat[k:k + len(desc)] for k in range(0, len(flat), len(desc))]
            expected = sort_rows(expected, rec.sort_mode)
            if len(expected) != len(actual_sorted) or any(
                    len(e) != len(a) or not all(values_match(x, y) for x, y in zip(e, a))
                    for e, a in zip(expected, actual_sorted)):
                got = ["\t".join(r) for r in actual_sorted]
                self.problems.append(
                    f"{self.where(rec)}: expected block differs from DuckDB\n  SQL: {sql}\n"
                    f"  expected: {rec.expected}\n  duckdb:   {got}")

    def write(self) -> None:
        lines = list(self.lines)
        for rec, new_expected, new_types in sorted(self.replacements,
                                                   key=lambda r: -r[0].header_line):
            assert rec.expected_span is not None
            start, end = rec.expected_span
            lines[start:end] = new_expected
            if new_types:
                words = lines[rec.header_line].split()
                words[1] = new_types
                lines[rec.header_line] = " ".join(words)
        self.path.write_text("\n".join(lines))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--fill", action="store_true")
    parser.add_argument("--list-by-hand", action="store_true")
    args = parser.parse_args(argv)
    failures = 0
    queries = 0
    for path in args.files:
        run = FileRun(path, args.fill)
        if args.list_by_hand:
            for rec in run.records:
                if rec.by_hand is not None:
                    print(f"{run.where(rec)}: {rec.by_hand}")
            continue
        run.run()
        queries += sum(1 for r in run.records if r.kind != "other")
        for problem in run.problems:
            print(problem)
        failures += len(run.problems)
        if args.fill:
            run.write()
    if not args.list_by_hand:
        print(f"{len(args.files)} file(s), {queries} record(s), {failures} problem(s)",
              file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

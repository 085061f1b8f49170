// Fuzz target: SQL text through the parser (ParseStatements, ParseStatement and
// ParseExpression). Nothing may crash or hang, and every failure must be a syntax error
// with a position: InvalidArgument whose message starts with "line L:C: ". Anything else
// aborts, so the driver saves the input. A parsed query is also printed (ToString), which
// walks the whole tree.
//
// Seeds: a few dozen statements written here, plus every statement of the SQL logic tests
// (tests/sql/**/*.test) when $SQE_SOURCE_DIR is set (ctest sets it). The grammar-aware
// mutator (SqeFuzzCustomMutate) edits token spans: replace or insert a keyword, operator,
// literal or identifier, duplicate, delete or swap spans, splice a span of another corpus
// entry, wrap a span in parentheses or a subquery, and nest or chain deeply.
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fuzz_target.h"
#include "sql/parser.h"

using namespace sqe;
using namespace sqe::sql;

namespace {

// Whether `message` starts with "line L:C: " where L:C lies in `sql` (or just past its
// end): L at most the number of lines, C at most one past that line's last byte.
bool HasPosition(const std::string& message, std::string_view sql) {
  std::string_view m = message;
  if (!m.starts_with("line ")) return false;
  m.remove_prefix(5);
  auto number = [&m](size_t* value) {
    size_t n = 0;
    *value = 0;
    while (n < m.size() && n < 12 && std::isdigit(static_cast<unsigned char>(m[n]))) {
      *value = *value * 10 + static_cast<size_t>(m[n] - '0');
      ++n;
    }
    if (n == 0 || m[0] == '0') return false;
    m.remove_prefix(n);
    return true;
  };
  size_t line = 0, column = 0;
  if (!number(&line) || !m.starts_with(":")) return false;
  m.remove_prefix(1);
  if (!number(&column) || !m.starts_with(": ")) return false;
  size_t begin = 0;
  for (size_t l = 1; l < line; ++l) {
    size_t nl = sql.find('\n', begin);
    if (nl == std::string_view::npos) return false;
    begin = nl + 1;
  }
  size_t end = sql.find('\n', begin);
  if (end == std::string_view::npos) end = sql.size();
  return column <= end - begin + 1;
}

// Outcomes of ParseStatements, printed at exit when $SQE_FUZZ_STATS is set: how much of
// what the mutator makes still parses, and how often the nesting limit is reached.
struct Stats {
  size_t parsed = 0;
  size_t syntax_errors = 0;
  size_t too_deep = 0;
  ~Stats() {
    if (std::getenv("SQE_FUZZ_STATS") == nullptr) return;
    std::fprintf(stderr, "fuzz: scripts parsed %zu, syntax errors %zu (nested too deeply %zu)\n",
                 parsed, syntax_errors, too_deep);
  }
};
Stats g_stats;

void CheckFailure(const Status& status, std::string_view sql, const char* entry) {
  if (status.code() == StatusCode::kInvalidArgument && HasPosition(status.message(), sql)) {
    return;
  }
  std::fprintf(stderr, "fuzz: %s failed without a syntax error position in the input: %s\n", entry,
               status.ToString().substr(0, 2000).c_str());
  std::abort();
}

// ---- seeds

const char* const kSeedStatements[] = {
    "SELECT 1",
    "SELECT a, b AS \"Quoted \"\"name\"\"\" FROM t WHERE a > 1 AND b IS NOT NULL ORDER BY 1 "
    "DESC NULLS LAST LIMIT 10",
    "SELECT t.a, u.b FROM cat.sch.t AS t JOIN u ON t.id = u.id LEFT OUTER JOIN v USING (id) "
    "CROSS JOIN w",
    "SELECT * FROM t NATURAL FULL JOIN u, UNNEST(ARRAY[1, 2]) WITH ORDINALITY AS x(v, n)",
    "SELECT x FROM t WHERE x IN (SELECT y FROM u WHERE u.k = t.k) OR EXISTS (SELECT 1 FROM v)",
    "SELECT (SELECT max(b) FROM u WHERE u.a = t.a) AS m FROM t",
    "SELECT a, sum(b) OVER (PARTITION BY c ORDER BY d ROWS BETWEEN UNBOUNDED PRECEDING AND "
    "CURRENT ROW) FROM t",
    "SELECT rank() OVER w, lag(x, 1) IGNORE NULLS OVER (ORDER BY y RANGE BETWEEN INTERVAL '1' "
    "DAY PRECEDING AND 2 FOLLOWING) FROM t WINDOW w AS (PARTITION BY z)",
    "WITH a AS (SELECT 1 AS x), b (y) AS (SELECT x + 1 FROM a) SELECT * FROM a, b",
    "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 10) SELECT n "
    "FROM r",
    "SELECT a, b, count(*) FROM t GROUP BY ROLLUP (a, b) HAVING count(*) > 1",
    "SELECT a, b, grouping(a, b) FROM t GROUP BY GROUPING SETS ((a), (a, b), ()), CUBE (b)",
    "SELECT DISTINCT a FROM t UNION SELECT b FROM u INTERSECT SELECT c FROM v EXCEPT ALL "
    "SELECT d FROM w",
    "SELECT CASE WHEN a = 1 THEN 'one' WHEN a = 2 THEN 'two' ELSE 'many' END, CASE b WHEN 1 "
    "THEN 2 END FROM t",
    "SELECT CAST(a AS decimal(10, 2)), TRY_CAST(b AS varchar), CAST(c AS array(row(x int, y "
    "double))), CAST(d AS map(varchar, bigint)) FROM t",
    "SELECT DATE '2024-01-31', TIMESTAMP '2024-01-31 12:34:56.789', TIME '01:02:03', "
    "INTERVAL '3' MONTH, INTERVAL '1 02:03' DAY TO MINUTE, X'0A0b', U&'\\0041b', 1.5e10, .5, "
    "9223372036854775807",
    "SELECT ts AT TIME ZONE 'UTC', extract(year FROM ts), substring(s FROM 2 FOR 3), trim(both "
    "'x' FROM s), position('a' IN s) FROM t",
    "SELECT transform(arr, x -> x * 2), reduce(arr, 0, (s, x) -> s + x, s -> s), m['k'], "
    "r.field, arr[1] FROM t",
    "SELECT count(DISTINCT a) FILTER (WHERE b > 0), array_agg(c ORDER BY d DESC), "
    "listagg(s, ',') WITHIN GROUP (ORDER BY s) FROM t",
    "SELECT a BETWEEN 1 AND 2, b NOT LIKE 'x%' ESCAPE '\\', c IS DISTINCT FROM d, e NOT IN "
    "(1, 2, 3), -f, NOT g, h || 'x', i % 3 FROM t",
    "SELECT * FROM t TABLESAMPLE BERNOULLI (10) FOR VERSION AS OF 123",
    "SELECT * FROM t FOR TIMESTAMP AS OF TIMESTAMP '2024-01-01 00:00:00 UTC'",
    "SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS v(x, y) ORDER BY x OFFSET 1 ROWS FETCH FIRST "
    "2 ROWS WITH TIES",
    "SELECT ? + ?, current_date, current_timestamp, localtime, current_user FROM t",
    "/* block comment */ SELECT 1 -- line comment\n, 2",
    "CREATE TABLE IF NOT EXISTS cat.s.t (id bigint NOT NULL COMMENT 'key', name varchar, ts "
    "timestamp(6) with time zone, price decimal(12, 2)) COMMENT 'table' WITH (format = "
    "'PARQUET', partitioning = ARRAY['bucket(id, 16)', 'day(ts)'], sorted_by = ARRAY['id'])",
    "CREATE OR REPLACE TABLE t2 WITH (format_version = 2) AS SELECT * FROM t WITH NO DATA",
    "CREATE TABLE t3 (a int, b string) USING iceberg PARTITIONED BY (a) TBLPROPERTIES ('k' = "
    "'v')",
    "CREATE VIEW v AS SELECT a FROM t",
    "CREATE SCHEMA IF NOT EXISTS cat.s WITH (location = 's3://bucket/path')",
    "INSERT INTO t (a, b) VALUES (1, 'x'), (2, NULL)",
    "INSERT INTO t SELECT * FROM u WHERE u.a > 0",
    "INSERT OVERWRITE t SELECT 1",
    "UPDATE t SET a = a + 1, b = DEFAULT WHERE c = 'x'",
    "DELETE FROM t WHERE a IN (SELECT a FROM u)",
    "MERGE INTO t AS tgt USING s AS src ON tgt.id = src.id WHEN MATCHED AND src.op = 'd' THEN "
    "DELETE WHEN MATCHED THEN UPDATE SET v = src.v WHEN NOT MATCHED THEN INSERT (id, v) VALUES "
    "(src.id, src.v)",
    "CALL system.rollback_to_snapshot('s', 't', 42)",
    "CALL cat.system.expire_snapshots(schema_name => 's', table_name => 't', retain_last => 3)",
    "ALTER TABLE t ADD COLUMN c double COMMENT 'new'",
    "ALTER TABLE t RENAME COLUMN a TO b",
    "ALTER TABLE t SET PROPERTIES format_version = 2",
    "ALTER TABLE t EXECUTE optimize(file_size_threshold => '10MB') WHERE a > 1",
    "DROP TABLE IF EXISTS t",
    "EXPLAIN SELECT * FROM t",
    "EXPLAIN ANALYZE VERBOSE SELECT count(*) FROM t",
    "EXPLAIN (TYPE DISTRIBUTED, FORMAT JSON) SELECT 1",
    "SHOW TABLES FROM cat.s LIKE 't%' ESCAPE '\\'",
    "SHOW SCHEMAS",
    "SHOW CATALOGS",
    "SHOW COLUMNS FROM t",
    "SHOW CREATE TABLE t",
    "SHOW FUNCTIONS",
    "SHOW SESSION",
    "SHOW STATS FOR t",
    "DESCRIBE t",
    "USE cat.s",
    "SET SESSION query_max_memory = '1GB'",
    "RESET SESSION query_max_memory",
    "START TRANSACTION; COMMIT; ROLLBACK",
    "PREPARE q FROM SELECT * FROM t WHERE a = ?",
    "EXECUTE q USING 1",
    "DEALLOCATE PREPARE q",
    "GRANT SELECT ON TABLE t TO USER alice",
    "CREATE SECRET s (TYPE s3, KEY_ID 'k', SECRET 'x')",
    "ATTACH 'catalog.db' AS c",
    "SELECT 1; SELECT 2;; SELECT 3",
};

// The SQL of each record of a sqllogictest file: the lines after "statement ..." or
// "query ..." up to "----" or a blank line.
void AppendTestFileStatements(const std::string& text, std::vector<std::string>* out) {
  std::istringstream in(text);
  std::string line;
  std::string sql;
  bool in_sql = false;
  auto flush = [&]() {
    if (in_sql && !sql.empty()) out->push_back(sql);
    sql.clear();
    in_sql = false;
  };
  while (std::getline(in, line)) {
    if (!in_sql) {
      if (line.starts_with("statement") || line.starts_with("query")) in_sql = true;
      continue;
    }
    if (line.empty() || line == "----") {
      flush();
      continue;
    }
    if (!sql.empty()) sql += '\n';
    sql += line;
  }
  flush();
}

void AppendLogicTestStatements(std::vector<std::string>* out) {
  const char* source = std::getenv("SQE_SOURCE_DIR");
  if (source == nullptr) return;
  std::error_code ec;
  std::filesystem::recursive_directory_iterator it(std::filesystem::path(source) / "tests/sql", ec);
  if (ec) return;
  size_t before = out->size();
  for (const auto& entry : it) {
    if (!entry.is_regular_file() || entry.path().extension() != ".test") continue;
    std::ifstream file(entry.path(), std::ios::binary);
    std::stringstream text;
    text << file.rdbuf();
    AppendTestFileStatements(text.str(), out);
  }
  std::fprintf(stderr, "fuzz: %zu seed statements from %s/tests/sql\n", out->size() - before,
               source);
}

// ---- the grammar-aware mutator

// Where a token lies in the text: [begin, end).
struct Span {
  size_t begin;
  size_t end;
};

bool IsWordChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;
}

// A rough SQL tokenizer that never fails: words and numbers, quoted strings and
// identifiers (to their closing quote or the end), two-character operators, and any other
// single byte. Whitespace and comments separate tokens and are kept in the text.
std::vector<Span> SplitTokens(const std::string& s) {
  std::vector<Span> spans;
  size_t i = 0;
  while (i < s.size()) {
    char c = s[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    if (c == '-' && i + 1 < s.size() && s[i + 1] == '-') {
      size_t nl = s.find('\n', i);
      i = nl == std::string::npos ? s.size() : nl + 1;
      continue;
    }
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
      size_t close = s.find("*/", i + 2);
      i = close == std::string::npos ? s.size() : close + 2;
      continue;
    }
    size_t start = i;
    if (c == '\'' || c == '"') {
      ++i;
      while (i < s.size()) {
        if (s[i] == c) {
          if (i + 1 < s.size() && s[i + 1] == c) {
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        ++i;
      }
    } else if (IsWordChar(c)) {
      while (i < s.size() &&
             (IsWordChar(s[i]) || (s[i] == '.' && i + 1 < s.size() &&
                                   std::isdigit(static_cast<unsigned char>(s[i + 1]))))) {
        ++i;
      }
    } else {
      static const char* const kTwo[] = {"<>", "!=", "<=", ">=", "||", "->", "=>"};
      i += 1;
      for (const char* two : kTwo) {
        if (s.compare(start, 2, two) == 0) {
          i = start + 2;
          break;
        }
      }
    }
    spans.push_back(Span{start, i});
  }
  return spans;
}

const char* const kKeywords[] = {
    "SELECT",
    "FROM",
    "WHERE",
    "GROUP BY",
    "HAVING",
    "ORDER BY",
    "LIMIT",
    "OFFSET",
    "FETCH",
    "FIRST",
    "ROWS",
    "ONLY",
    "WITH",
    "RECURSIVE",
    "AS",
    "ON",
    "USING",
    "JOIN",
    "LEFT",
    "RIGHT",
    "FULL",
    "INNER",
    "OUTER",
    "CROSS",
    "NATURAL",
    "LATERAL",
    "UNNEST",
    "UNION",
    "INTERSECT",
    "EXCEPT",
    "ALL",
    "DISTINCT",
    "AND",
    "OR",
    "NOT",
    "IN",
    "EXISTS",
    "BETWEEN",
    "LIKE",
    "ESCAPE",
    "IS",
    "NULL",
    "TRUE",
    "FALSE",
    "CASE",
    "WHEN",
    "THEN",
    "ELSE",
    "END",
    "CAST",
    "TRY_CAST",
    "OVER",
    "PARTITION BY",
    "RANGE",
    "GROUPS",
    "PRECEDING",
    "FOLLOWING",
    "UNBOUNDED",
    "CURRENT ROW",
    "WINDOW",
    "FILTER",
    "WITHIN GROUP",
    "ROLLUP",
    "CUBE",
    "GROUPING SETS",
    "ARRAY",
    "MAP",
    "ROW",
    "INTERVAL",
    "DATE",
    "TIMESTAMP",
    "TIME",
    "AT TIME ZONE",
    "DAY",
    "MONTH",
    "YEAR",
    "TO",
    "EXTRACT",
    "TRIM",
    "SUBSTRING",
    "POSITION",
    "VALUES",
    "TABLE",
    "CREATE",
    "DROP",
    "ALTER",
    "INSERT INTO",
    "UPDATE",
    "SET",
    "DELETE",
    "MERGE INTO",
    "MATCHED",
    "CALL",
    "EXPLAIN",
    "ANALYZE",
    "SHOW",
    "DESCRIBE",
    "TABLESAMPLE",
    "BERNOULLI",
    "FOR VERSION AS OF",
    "ORDINALITY",
    "IGNORE NULLS",
    "NULLS LAST",
    "ASC",
    "DESC",
    "IF NOT EXISTS",
    "OR REPLACE",
    "DEFAULT",
    "COMMENT",
    "PROPERTIES",
    "PREPARE",
    "EXECUTE",
    "LISTAGG",
    "CURRENT_DATE",
    "CURRENT_TIMESTAMP",
    "LOCALTIME",
    "NORMALIZE",
    "UESCAPE",
};

const char* const kOperators[] = {"=", "<>", "!=", "<",  "<=", ">", ">=", "+", "-", "*",
                                  "/", "%",  "||", "->", "=>", ".", ",",  "(", ")", "[",
                                  "]", ";",  ":",  "?",  "(",  ")", "(",  ")"};

const char* const kLiterals[] = {
    "0",
    "1",
    "-1",
    "2147483648",
    "9223372036854775807",
    "9223372036854775808",
    "99999999999999999999999999999999999999999",
    "1.5",
    ".5",
    "1.",
    "1e308",
    "1e999",
    "4.2E-3",
    "''",
    "'x'",
    "'it''s'",
    "X'0A0B'",
    "X'0'",
    "U&'\\0041'",
    "U&'\\+01F600' UESCAPE '!'",
    "DATE '2024-02-30'",
    "TIMESTAMP 'x'",
    "INTERVAL '1' DAY",
    "INTERVAL '-1-2' YEAR TO MONTH",
    "NULL",
    "ARRAY[]",
    "ARRAY[1, NULL]",
    "ROW(1, 'a')",
    "MAP(ARRAY[1], ARRAY[2])",
    "x -> x",
    "(a, b) -> a + b",
    "?",
};

const char* const kIdentifiers[] = {
    "t",          "a",      "b",    "x",   "\"t\"",    "\"\"\"\"",  "\"\"",
    "cat.sch.t",  "t.a",    "_x1",  "abs", "count",    "sum",       "row_number",
    "\"select\"", "system", "json", "ts",  "\xc3\xa4", "a.b.c.d.e",
};

template <size_t N>
std::string Pick(const char* const (&words)[N], std::mt19937_64& rng) {
  return words[rng() % N];
}

std::string RandomToken(std::mt19937_64& rng) {
  switch (rng() % 4) {
    case 0:
      return Pick(kKeywords, rng);
    case 1:
      return Pick(kOperators, rng);
    case 2:
      return Pick(kLiterals, rng);
    default:
      return Pick(kIdentifiers, rng);
  }
}

std::string Repeat(std::string_view piece, size_t times) {
  std::string out;
  out.reserve(piece.size() * times);
  for (size_t i = 0; i < times; ++i) out += piece;
  return out;
}

// A deeply nested or long chained form around `inner`: the parser must refuse what is too
// deep with a positioned error, never overflow the stack.
std::string NestDeeply(const std::string& inner, std::mt19937_64& rng) {
  // Mostly around the limit (about 330 parentheses), sometimes far past it.
  size_t n = rng() % 4 == 0 ? 1 + rng() % 5000 : 250 + rng() % 200;
  switch (rng() % 8) {
    case 0:
      return Repeat("(", n) + inner + Repeat(")", n);
    case 1:
      return Repeat("(SELECT ", n) + inner + Repeat(")", n);
    case 2:
      return Repeat("NOT ", n) + inner;
    case 3:
      return Repeat("- ", n) + inner;
    case 4:
      return inner + Repeat(" + 1", n * 4);
    case 5:
      return Repeat("ARRAY[", n) + inner + Repeat("]", n);
    case 6:
      return Repeat("CASE WHEN ", n) + inner + Repeat(" THEN 1 END", n);
    default:
      return "SELECT * FROM t" + Repeat(" JOIN t ON TRUE", n * 2) + " WHERE " + inner;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view sql(reinterpret_cast<const char*>(data), size);
  Result<std::vector<ast::StatementPtr>> script = sql::ParseStatements(sql);
  if (!script.ok()) {
    CheckFailure(script.status(), sql, "ParseStatements");
    ++g_stats.syntax_errors;
    if (script.status().message().find("nested too deeply") != std::string::npos) {
      ++g_stats.too_deep;
    }
  } else {
    ++g_stats.parsed;
    for (const ast::StatementPtr& statement : *script) {
      if (statement == nullptr) std::abort();
      if (statement->kind == ast::StatementKind::kQuery) {
        const auto& query = static_cast<const ast::QueryStatement&>(*statement);
        if (query.query == nullptr) std::abort();
        (void)query.query->ToString();
      }
    }
  }
  Result<ast::StatementPtr> one = sql::ParseStatement(sql);
  if (!one.ok()) CheckFailure(one.status(), sql, "ParseStatement");
  Result<ast::ExprPtr> expr = sql::ParseExpression(sql);
  if (!expr.ok()) {
    CheckFailure(expr.status(), sql, "ParseExpression");
  } else {
    (void)(*expr)->ToString();
  }
  return 0;
}

std::vector<std::string> SqeFuzzSeeds() {
  std::vector<std::string> seeds(std::begin(kSeedStatements), std::end(kSeedStatements));
  AppendLogicTestStatements(&seeds);
  return seeds;
}

void SqeFuzzCustomMutate(std::string& input, const std::vector<std::string>& corpus,
                         std::mt19937_64& rng) {
  std::vector<Span> spans = SplitTokens(input);
  auto below = [&rng](size_t n) { return n == 0 ? size_t{0} : static_cast<size_t>(rng() % n); };
  if (spans.empty()) {
    input += " " + RandomToken(rng);
    return;
  }
  // A random span of tokens [first, last] as a byte range.
  size_t first = below(spans.size());
  size_t last = std::min(spans.size() - 1, first + below(8));
  const size_t begin = spans[first].begin;
  const size_t end = spans[last].end;
  const std::string text = input.substr(begin, end - begin);
  switch (below(10)) {
    case 0:  // replace one token
      input.replace(spans[first].begin, spans[first].end - spans[first].begin, RandomToken(rng));
      break;
    case 1:  // insert a token
      input.insert(spans[first].begin, RandomToken(rng) + " ");
      break;
    case 2:  // duplicate a span
      input.insert(end, " " + text);
      break;
    case 3:  // delete a span
      input.erase(begin, end - begin);
      break;
    case 4: {  // swap two tokens
      size_t other = below(spans.size());
      Span a = spans[std::min(first, other)];
      Span b = spans[std::max(first, other)];
      if (a.begin == b.begin) break;
      std::string ta = input.substr(a.begin, a.end - a.begin);
      std::string tb = input.substr(b.begin, b.end - b.begin);
      input.replace(b.begin, b.end - b.begin, ta);
      input.replace(a.begin, a.end - a.begin, tb);
      break;
    }
    case 5: {  // splice a token span of another corpus entry
      const std::string& donor = corpus[below(corpus.size())];
      std::vector<Span> donor_spans = SplitTokens(donor);
      if (donor_spans.empty()) break;
      size_t from = below(donor_spans.size());
      size_t to = std::min(donor_spans.size() - 1, from + below(12));
      std::string piece =
          donor.substr(donor_spans[from].begin, donor_spans[to].end - donor_spans[from].begin);
      if (below(2) == 0) {
        input.replace(begin, end - begin, piece);
      } else {
        input.insert(begin, piece + " ");
      }
      break;
    }
    case 6:  // wrap a span in parentheses
      input.replace(begin, end - begin, "(" + text + ")");
      break;
    case 7:  // wrap a span in a subquery
      input.replace(begin, end - begin, "(SELECT " + text + ")");
      break;
    case 8:  // nest deeply (rarely: each such input is large)
      if (below(4) == 0) {
        input.replace(begin, end - begin, NestDeeply(text, rng));
      } else {
        input.replace(begin, end - begin, "(" + text + ")");
      }
      break;
    default:  // drop a token's last character or a quote (unterminated strings, comments)
      if (below(2) == 0) {
        input.erase(spans[first].end - 1, 1);
      } else {
        static const char* const kBreakers[] = {"'", "\"", "/*", "--", "U&'", "X'", "\\", "`"};
        input.insert(spans[first].begin, Pick(kBreakers, rng));
      }
      break;
  }
}

// sqe-shell: SQL in-process on SQE's engine. Statements come from -c (repeatable, several
// per -c separated by ';'), --file, standard input, or an interactive prompt with line
// editing and history. Each statement's rows print as they stream from the engine
// (main/shell_output.h), so results of any size print in bounded memory. stdout carries
// result rows only; errors go to stderr and make the
// exit code 1. The shell is the local user: no [auth] section is needed and the
// server-only validation (ports, providers) is skipped.
//
// Exit codes: 0 every statement succeeded, 1 a statement failed, 2 bad usage.
#include <editline/readline.h>
#include <unistd.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

#include "common/logging.h"
#include "config/config_loader.h"
#include "engine/engine.h"
#include "engine/result_cursor.h"
#include "main/shell_output.h"
#include "sql/parser.h"
#include "version.h"

namespace {

using sqe::app::ShellFormat;

/// How results are shown: the format, and whether each run's wall time goes to stderr.
struct ShellDisplay {
  ShellFormat format = ShellFormat::kTable;
  bool timing = false;
};

/// `statement`'s text preceded by blanks in place of the script before it (newlines
/// kept), so positions in its error messages ("line 3:8: ...") are the script's.
std::string InPlace(const std::string& sql, const sqe::sql::ast::Statement& statement) {
  const size_t begin = std::min(static_cast<size_t>(statement.pos.offset), sql.size());
  std::string text(begin, ' ');
  for (size_t i = 0; i < begin; ++i) {
    if (sql[i] == '\n') text[i] = '\n';
  }
  return text + statement.text;
}

/// Runs one statement and prints its rows as they arrive (memory stays bounded whatever
/// the result's size).
sqe::Status RunStatement(sqe::engine::Session& session, const std::string& sql,
                         ShellFormat format) {
  SQE_ASSIGN_OR_RETURN(std::unique_ptr<sqe::engine::ResultCursor> cursor, session.Start(sql));
  sqe::app::ResultPrinter printer(format, cursor->schema(), std::cout);
  while (true) {
    SQE_ASSIGN_OR_RETURN(std::optional<sqe::columnar::Batch> batch, cursor->Next());
    if (!batch) break;
    SQE_RETURN_NOT_OK(printer.Add(*batch));
  }
  return printer.Finish();
}

/// Runs the statements of `sql` one after the other, each result printed while it
/// streams; false after the first error (the results before it are printed). With
/// `display.timing`, "Run Time: <seconds> s" goes to stderr: the wall time of the run,
/// printing included (results stream, so running and printing overlap).
bool RunScript(sqe::engine::Session& session, const std::string& sql, const ShellDisplay& display) {
  const auto start = std::chrono::steady_clock::now();
  sqe::Status status = sqe::Status::OK();
  auto statements = sqe::sql::ParseStatements(sql);
  if (!statements.ok()) {
    status = statements.status();
  } else {
    for (const sqe::sql::ast::StatementPtr& statement : *statements) {
      status = RunStatement(session, InPlace(sql, *statement), display.format);
      if (!status.ok()) break;
    }
  }
  std::cout.flush();
  if (display.timing) {
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    std::fprintf(stderr, "Run Time: %.3f s\n", elapsed.count());
  }
  if (!status.ok()) {
    std::cerr << status.message() << std::endl;
    return false;
  }
  return true;
}

/// Whether `text` ends a statement: a ';' outside quotes and comments at its end.
bool StatementComplete(const std::string& text) {
  bool in_string = false, in_ident = false, in_line_comment = false, in_block = false;
  char last = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    char next = i + 1 < text.size() ? text[i + 1] : 0;
    if (in_line_comment) {
      if (c == '\n') in_line_comment = false;
      continue;
    }
    if (in_block) {
      if (c == '*' && next == '/') {
        in_block = false;
        ++i;
      }
      continue;
    }
    if (in_string) {
      if (c == '\'') in_string = false;
      continue;
    }
    if (in_ident) {
      if (c == '"') in_ident = false;
      continue;
    }
    if (c == '\'')
      in_string = true;
    else if (c == '"')
      in_ident = true;
    else if (c == '-' && next == '-')
      in_line_comment = true;
    else if (c == '/' && next == '*')
      in_block = true;
    if (!std::isspace(static_cast<unsigned char>(c)) && !in_line_comment && !in_block) last = c;
  }
  return last == ';' && !in_string && !in_ident && !in_block;
}

int Repl(sqe::engine::Session& session, const ShellDisplay& display) {
  std::string history_path;
  if (const char* home = std::getenv("HOME")) history_path = std::string(home) + "/.sqe_history";
  if (!history_path.empty()) read_history(history_path.c_str());
  std::cerr << "sqe-shell " << SQE_VERSION
            << ": end statements with ';', quit with Ctrl-D or 'quit;'" << std::endl;
  std::string buffer;
  int status = 0;
  while (true) {
    char* line = readline(buffer.empty() ? "sqe> " : "  -> ");
    if (line == nullptr) break;
    std::string text(line);
    std::free(line);
    if (buffer.empty()) {
      std::string trimmed = text;
      while (!trimmed.empty() &&
             (trimmed.back() == ';' || std::isspace(static_cast<unsigned char>(trimmed.back())))) {
        trimmed.pop_back();
      }
      if (trimmed == "quit" || trimmed == "exit") break;
      if (trimmed.empty()) continue;
    }
    buffer += (buffer.empty() ? "" : "\n") + text;
    if (!StatementComplete(buffer)) continue;
    add_history(buffer.c_str());
    if (!history_path.empty()) write_history(history_path.c_str());
    status = RunScript(session, buffer, display) ? 0 : 1;
    buffer.clear();
  }
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"sqe-shell: run SQL in-process on SQE's engine"};
  app.set_version_flag("--version", std::string("sqe-shell ") + SQE_VERSION);
  std::string warehouse, config_path, file, format_name;
  std::vector<std::string> commands, sets;
  int threads = 0;
  bool timing = false;
  app.add_option("--warehouse", warehouse, "open (or create) the embedded catalog in DIR");
  app.add_option("--config", config_path, "use the catalog, storage and query sections of FILE");
  app.add_option("--set", sets, "override a config field: section.field=value (repeatable)");
  app.add_option("-c,--command", commands, "SQL to run; ';' separates statements (repeatable)");
  app.add_option("--file", file, "run the SQL in FILE");
  app.add_option("--format", format_name, "table | csv | tsv | jsonl (default: table)");
  app.add_option("--threads", threads, "query threads (default: the number of cores)");
  app.add_flag("--timing", timing, "print each run's wall time to stderr (Run Time: S s)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  auto format = sqe::app::ParseShellFormat(format_name.empty() ? "table" : format_name);
  if (!format.ok()) {
    std::cerr << "sqe-shell: " << format.status().message() << std::endl;
    return 2;
  }
  if (!warehouse.empty() && !config_path.empty()) {
    std::cerr << "sqe-shell: give --warehouse or --config, not both" << std::endl;
    return 2;
  }
  sqe::log::SetLevel(sqe::log::Level::kWarn);
  sqe::config::LoadOptions load;
  if (!config_path.empty()) load.config_path = config_path;
  load.set_overrides = sets;
  load.env = sqe::config::CurrentEnvironment();
  load.server_validation = false;
  auto loaded = sqe::config::LoadConfig(load);
  if (!loaded.ok()) {
    std::cerr << "sqe-shell: " << loaded.status().message() << std::endl;
    return 1;
  }
  sqe::engine::EngineOptions options;
  options.config = loaded->config;
  options.threads = threads;
  options.warehouse = warehouse;
  auto engine = sqe::engine::Engine::Open(std::move(options));
  if (!engine.ok()) {
    std::cerr << "sqe-shell: " << engine.status().message() << std::endl;
    return 1;
  }
  const ShellDisplay display{*format, timing};
  std::unique_ptr<sqe::engine::Session> session =
      (*engine)->NewSession(std::getenv("USER") != nullptr ? std::getenv("USER") : "sqe");
  if (!commands.empty() || !file.empty()) {
    for (const std::string& c : commands) {
      if (!RunScript(*session, c, display)) return 1;
    }
    if (!file.empty()) {
      std::ifstream in(file);
      if (!in) {
        std::cerr << "sqe-shell: cannot read " << file << std::endl;
        return 1;
      }
      std::stringstream text;
      text << in.rdbuf();
      if (!RunScript(*session, text.str(), display)) return 1;
    }
    return 0;
  }
  if (!isatty(STDIN_FILENO)) {
    std::stringstream text;
    text << std::cin.rdbuf();
    return RunScript(*session, text.str(), display) ? 0 : 1;
  }
  return Repl(*session, display);
}

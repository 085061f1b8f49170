#pragma once
/// The sources of configuration values before they meet the schema: the TOML file, the
/// environment and the command line, each turned into a Layer of (path, raw value, origin)
/// entries. Keeping toml++ behind this boundary means only config_file_source.cc includes
/// it, and the merge treats all three sources alike.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "config/config_loader.h"
#include "config/diagnostics_internal.h"

namespace sqe::config {

/// A value as a source wrote it. Env and --set give kText (coerced to the field's type);
/// the file gives typed TOML values.
struct RawValue {
  enum class Kind { kText, kString, kInteger, kFloat, kBool, kArray, kTable, kOther };
  Kind kind = Kind::kText;
  std::string text;  ///< kText, kString; kOther: the TOML type name ("date-time")
  int64_t integer = 0;
  double floating = 0;
  bool boolean = false;
  std::vector<RawValue> items;  ///< kArray
};

/// One value of one source.
struct LayerEntry {
  std::vector<std::string> path;  ///< key segments; table-array entries by index ("0")
  RawValue value;
  /// Where it came from, for messages: "/etc/sqe.toml:3:1", "env SQE_X__Y", "--set x.y".
  std::string origin;
};

/// All values of one source, applied over the lower-priority ones.
struct Layer {
  enum class Kind { kFile, kEnv, kCli };
  Kind kind = Kind::kFile;
  std::string name;      ///< "/etc/sqe.toml", "the environment", "the command line"
  std::string base_dir;  ///< kFile: absolute directory relative paths resolve against
  std::vector<LayerEntry> entries;
};

/// Reads and parses a TOML file; parse errors come back as InvalidArgument
/// "path:line:column: reason".
Result<Layer> ReadFileLayer(const std::string& path);

/// Parses a TOML inline array ("[\"a\", \"b\"]") given on the command line or in env.
Result<RawValue> ParseInlineArray(std::string_view text);

/// The SQE_<A>__<B> variables of `env` (prefix SQE_ and containing "__"), segments
/// lower-cased.
Layer EnvLayer(const std::map<std::string, std::string>& env);

/// --mode, then every --set in order. Malformed --set arguments become errors.
Layer CliLayer(const LoadOptions& options, DiagnosticList* diagnostics);

/// Splits a --set key into segments: dots separate, "quoted.keys" stay whole, and
/// `name[2]` is the same as `name.2`. Empty on a syntax error.
std::vector<std::string> SplitSetPath(std::string_view key);

/// A short description of a raw value for type errors: `the string "abc"`, `an integer (5)`.
std::string DescribeRaw(const RawValue& value);

}  // namespace sqe::config

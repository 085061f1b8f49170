// The TOML file as a Layer. The only file of the loader that includes toml++ (the API-keys
// file has its own reader), so toml++ never reaches a header.

#ifndef TOML_HEADER_ONLY
#define TOML_HEADER_ONLY 0
#endif
#include <toml++/toml.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "config/config_source_internal.h"

namespace sqe::config {
namespace {

std::string Position(const std::string& file, const toml::source_region& where) {
  return file + ":" + std::to_string(where.begin.line) + ":" + std::to_string(where.begin.column);
}

RawValue ToRaw(const toml::node& node) {
  RawValue raw;
  switch (node.type()) {
    case toml::node_type::string:
      raw.kind = RawValue::Kind::kString;
      raw.text = node.as_string()->get();
      break;
    case toml::node_type::integer:
      raw.kind = RawValue::Kind::kInteger;
      raw.integer = node.as_integer()->get();
      break;
    case toml::node_type::floating_point:
      raw.kind = RawValue::Kind::kFloat;
      raw.floating = node.as_floating_point()->get();
      break;
    case toml::node_type::boolean:
      raw.kind = RawValue::Kind::kBool;
      raw.boolean = node.as_boolean()->get();
      break;
    case toml::node_type::array:
      raw.kind = RawValue::Kind::kArray;
      for (const toml::node& item : *node.as_array()) raw.items.push_back(ToRaw(item));
      break;
    case toml::node_type::table:
      raw.kind = RawValue::Kind::kTable;
      break;
    default:
      raw.kind = RawValue::Kind::kOther;
      raw.text = node.is_date() ? "date" : node.is_time() ? "time" : "date-time";
      break;
  }
  return raw;
}

bool IsArrayOfTables(const toml::node& node) {
  const toml::array* array = node.as_array();
  if (array == nullptr || array->empty()) return false;
  for (const toml::node& item : *array) {
    if (!item.is_table()) return false;
  }
  return true;
}

void Flatten(const toml::table& table, const std::string& file, std::vector<std::string>* path,
             std::vector<LayerEntry>* out) {
  if (table.empty() && !path->empty()) {
    // An empty [section] still says "this optional section exists".
    out->push_back({*path, ToRaw(table), Position(file, table.source())});
    return;
  }
  for (const auto& [key, node] : table) {
    path->push_back(std::string(key.str()));
    if (const toml::table* child = node.as_table()) {
      Flatten(*child, file, path, out);
    } else if (IsArrayOfTables(node)) {
      size_t index = 0;
      for (const toml::node& item : *node.as_array()) {
        path->push_back(std::to_string(index++));
        Flatten(*item.as_table(), file, path, out);
        if (item.as_table()->empty()) out->back().origin = Position(file, key.source());
        path->pop_back();
      }
    } else {
      out->push_back({*path, ToRaw(node), Position(file, key.source())});
    }
    path->pop_back();
  }
}

}  // namespace

Result<Layer> ReadFileLayer(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return Status::InvalidArgument("cannot read config file '" + path +
                                   "': " + std::strerror(errno));
  }
  std::stringstream buffer;
  buffer << in.rdbuf();
  std::string text = buffer.str();

  Layer layer;
  layer.kind = Layer::Kind::kFile;
  layer.name = path;
  std::error_code ec;
  std::filesystem::path absolute = std::filesystem::absolute(path, ec);
  layer.base_dir = ec ? std::filesystem::path(path).parent_path().string()
                      : absolute.lexically_normal().parent_path().string();
  try {
    toml::table table = toml::parse(text, path);
    std::vector<std::string> segments;
    Flatten(table, path, &segments, &layer.entries);
  } catch (const toml::parse_error& e) {
    return Status::InvalidArgument(Position(path, e.source()) +
                                   ": invalid TOML: " + std::string(e.description()));
  } catch (const std::exception& e) {
    return Status::InvalidArgument("cannot parse config file '" + path + "': " + e.what());
  }
  return layer;
}

Result<RawValue> ParseInlineArray(std::string_view text) {
  try {
    toml::table table = toml::parse("v = " + std::string(text));
    const toml::node* node = table.get("v");
    if (node == nullptr || !node->is_array()) {
      return Status::InvalidArgument("not a TOML inline array");
    }
    return ToRaw(*node);
  } catch (const toml::parse_error& e) {
    return Status::InvalidArgument("not a valid TOML inline array (" +
                                   std::string(e.description()) + ")");
  } catch (const std::exception& e) {
    return Status::InvalidArgument(std::string("not a valid TOML inline array (") + e.what() + ")");
  }
}

}  // namespace sqe::config

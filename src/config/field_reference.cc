// FieldReferenceMarkdown: the field tables of docs/configuration.md, generated from the
// schema (a unit test keeps the checked-in document in step with this output).

#include "config/config_loader.h"
#include "config/schema_internal.h"
#include "config/toml_text_internal.h"

namespace sqe::config {
namespace {

std::string TypeName(const SchemaNode& node, FieldType type) {
  if (node.relative_path) return "path";
  switch (type) {
    case FieldType::kString:
      return "string";
    case FieldType::kInt:
      return "integer";
    case FieldType::kPort:
      return "port";
    case FieldType::kDouble:
      return "number";
    case FieldType::kBool:
      return "boolean";
    case FieldType::kSize:
      return "size";
    case FieldType::kStringList:
      return "list of strings";
    case FieldType::kSecret:
      return "secret";
  }
  return "value";
}

std::string Cell(std::string text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

std::string CodeList(const std::vector<std::string>& values) {
  std::string out;
  for (const std::string& v : values) out += (out.empty() ? "`" : ", `") + v + "`";
  return out;
}

std::string Bound(double v) {
  std::string s = std::to_string(v);
  if (v == static_cast<double>(static_cast<long long>(v)))
    s = std::to_string(static_cast<long long>(v));
  return s;
}

std::string Describe(const SchemaNode& node) {
  std::string d = node.description;
  if (!node.enum_values.empty()) d += " One of: " + CodeList(node.enum_values) + ".";
  if (!node.unwired_values.empty()) {
    d += " Defined but rejected until wired: " + CodeList(node.unwired_values) + ".";
  }
  if (!node.applies_to.empty()) d += " Types: " + CodeList(node.applies_to) + ".";
  if (node.min && node.max) {
    d += " Range: " + Bound(*node.min) + " to " + Bound(*node.max) + ".";
  } else if (node.min) {
    d += " Minimum: " + Bound(*node.min) + ".";
  }
  if (node.type == FieldType::kSecret && node.kind == NodeKind::kField) {
    d += " Secret: printed as `***`; also settable from a file with `" + node.name + "_file`.";
  }
  if (node.relative_path) d += " A relative path in the file resolves against its directory.";
  return d;
}

void Row(const std::string& path, const std::string& type, const std::string& def,
         const std::string& env, const std::string& description, std::string* out) {
  *out += "| `" + Cell(path) + "` | " + type + " | " + Cell(def) + " | `" + Cell(env) + "` | " +
          Cell(description) + " |\n";
}

void DocumentSection(const SchemaNode& node, void* proto, std::string* out) {
  std::string path = node.SchemaPath();
  std::string heading = node.kind == NodeKind::kTableArray ? "[[" + path + "]]" : "[" + path + "]";
  *out += "\n### `" + heading + "`\n\n" + node.description;
  if (node.kind == NodeKind::kOptionalSection) *out += " (Optional section.)";
  if (node.kind == NodeKind::kTableArray) {
    *out += " Entries are numbered from 0 in the environment and in --set.";
  }
  *out += "\n\n| Field | Type | Default | Environment variable | Description |\n";
  *out += "|---|---|---|---|---|\n";

  if (node.kind == NodeKind::kMap) {
    Row(
        path + "." + node.key_doc, TypeName(node, node.type), "(none)",
        node.EnvName() + "__" +
            [&] {
              std::string upper = node.key_doc;
              for (char& c : upper)
                c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
              return upper;
            }(),
        Describe(node) + " Keys from the environment are lower-cased.", out);
    return;
  }
  for (const auto& child : node.children) {
    if (child->kind != NodeKind::kField) continue;
    std::string def = child->default_doc.empty()
                          ? "`" + RenderTomlValue(*child, child->type, child->field(proto)) + "`"
                          : child->default_doc;
    Row(child->SchemaPath(), TypeName(*child, child->type), def, child->EnvName(), Describe(*child),
        out);
    if (child->type == FieldType::kSecret) {
      Row(child->SchemaPath() + "_file", "path", "`\"\"`", child->EnvName() + "_FILE",
          "File holding " + child->name +
              " (one trailing newline trimmed); a relative path in the file resolves against "
              "its directory. Setting both " +
              child->name + " and " + child->name + "_file in one source is an error.",
          out);
    }
  }
  for (const auto& child : node.children) {
    switch (child->kind) {
      case NodeKind::kField:
        break;
      case NodeKind::kSection:
      case NodeKind::kOptionalSection:
        DocumentSection(*child, child->section(proto, true), out);
        break;
      case NodeKind::kTableArray:
        DocumentSection(*child, child->element(proto, 0, true), out);
        break;
      case NodeKind::kMap:
        DocumentSection(*child, proto, out);
        break;
    }
  }
}

}  // namespace

std::string FieldReferenceMarkdown() {
  Config proto;  // defaults; optional sections and one provider entry get created on it
  std::string out =
      "<!-- BEGIN GENERATED FIELD REFERENCE: the output of sqe::config::FieldReferenceMarkdown(); "
      "edit src/config/config_schema.cc, not this table -->\n";
  const SchemaNode& root = ConfigSchema();
  for (const auto& section : root.children) {
    DocumentSection(*section, section->section(&proto, true), &out);
  }
  out += "\n<!-- END GENERATED FIELD REFERENCE -->\n";
  return out;
}

}  // namespace sqe::config

#include "formats/parquet/level_shredding.h"

#include <memory>

namespace sqe::parquet {
namespace {

using columnar::Column;
using columnar::Field;
using columnar::TypeId;

// The columns of a field tree, computed once per batch so the per-row walk only indexes.
struct Node {
  const Field* field = nullptr;
  Column column;  // struct children aligned with the parent's rows; list children raw
  std::vector<Node> children;
  int first_leaf = 0;
  int num_leaves = 0;
  int16_t rep_depth = 0;  // repetition level of the innermost enclosing repeated group
};

class Shredder {
 public:
  std::vector<ShreddedLeaf> leaves;

  Status Build(const Field& field, const Column& column, int16_t def, int16_t rep, Node* node) {
    node->field = &field;
    node->column = column;
    node->rep_depth = rep;
    node->first_leaf = static_cast<int>(leaves.size());
    if (field.nullable()) ++def;
    const columnar::DataType& t = *field.type();
    switch (t.id()) {
      case TypeId::kList: {
        node->children.resize(1);
        SQE_RETURN_NOT_OK(
            Build(t.value_field(), column.ListValues(), def + 1, rep + 1, &node->children[0]));
        break;
      }
      case TypeId::kMap: {
        node->children.resize(2);
        SQE_RETURN_NOT_OK(
            Build(t.key_field(), column.MapKeys(), def + 1, rep + 1, &node->children[0]));
        SQE_RETURN_NOT_OK(
            Build(t.item_field(), column.MapItems(), def + 1, rep + 1, &node->children[1]));
        break;
      }
      case TypeId::kStruct: {
        node->children.resize(t.num_fields());
        for (int i = 0; i < t.num_fields(); ++i) {
          SQE_RETURN_NOT_OK(Build(t.field(i), column.StructField(i), def, rep, &node->children[i]));
        }
        break;
      }
      default: {
        ShreddedLeaf leaf;
        leaf.values = column;
        leaf.max_def = def;
        leaf.max_rep = rep;
        leaves.push_back(std::move(leaf));
      }
    }
    node->num_leaves = static_cast<int>(leaves.size()) - node->first_leaf;
    return Status::OK();
  }

  void EmitAbsent(const Node& node, int16_t def, int16_t rep) {
    for (int i = node.first_leaf; i < node.first_leaf + node.num_leaves; ++i) {
      leaves[i].def_levels.push_back(def);
      leaves[i].rep_levels.push_back(rep);
    }
  }

  Status Emit(const Node& node, int64_t row, int16_t def, int16_t rep) {
    const Column& col = node.column;
    if (node.field->nullable()) {
      if (col.IsNull(row)) {
        EmitAbsent(node, def, rep);
        return Status::OK();
      }
      ++def;
    } else if (col.IsNull(row)) {
      return Status::InvalidArgument("parquet writer: null in non-nullable field '" +
                                     node.field->name() + "'");
    }
    switch (col.type_id()) {
      case TypeId::kList:
      case TypeId::kMap: {
        const int64_t start = col.ListStart(row);
        const int64_t n = col.ListLength(row);
        if (n == 0) {
          EmitAbsent(node, def, rep);
          return Status::OK();
        }
        const int16_t inner_rep = static_cast<int16_t>(node.rep_depth + 1);
        for (int64_t k = 0; k < n; ++k) {
          for (const Node& child : node.children) {
            SQE_RETURN_NOT_OK(Emit(child, start + k, def + 1, k == 0 ? rep : inner_rep));
          }
        }
        return Status::OK();
      }
      case TypeId::kStruct:
        for (const Node& child : node.children) SQE_RETURN_NOT_OK(Emit(child, row, def, rep));
        return Status::OK();
      default: {
        ShreddedLeaf& leaf = leaves[node.first_leaf];
        leaf.def_levels.push_back(def);
        leaf.rep_levels.push_back(rep);
        leaf.value_rows.push_back(row);
        return Status::OK();
      }
    }
  }
};

}  // namespace

Result<std::vector<ShreddedLeaf>> ShredColumn(const columnar::Field& field,
                                              const columnar::Column& column) {
  Shredder s;
  Node root;
  SQE_RETURN_NOT_OK(s.Build(field, column, 0, 0, &root));
  for (int64_t row = 0; row < column.length(); ++row) {
    SQE_RETURN_NOT_OK(s.Emit(root, row, 0, 0));
  }
  return std::move(s.leaves);
}

}  // namespace sqe::parquet

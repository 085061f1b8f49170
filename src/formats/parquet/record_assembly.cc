// Record assembly: slots of each node of the type tree from the levels of its first leaf.
#include "formats/parquet/record_assembly.h"

#include <cstring>
#include <limits>
#include <vector>

namespace sqe::parquet {
namespace {

using columnar::Buffer;
using columnar::BufferPtr;
using columnar::Column;
using columnar::Field;
using columnar::TypeId;

// The levels of one node: `def` is the definition level at which the node is non-null,
// `rep` its repetition level, `ancestor_def` the definition level at which its nearest
// repeated ancestor has an element (slots below it belong to an absent or empty list).
struct LevelInfo {
  int16_t def = 0;
  int16_t rep = 0;
  int16_t ancestor_def = 0;
};

Status AssemblyError(const std::string& what) {
  return Status::Corruption("parquet record assembly: " + what);
}

template <typename T>
void ScatterTyped(const uint8_t* in, const std::vector<uint8_t>& valid, uint8_t* out) {
  int64_t v = 0;
  for (size_t s = 0; s < valid.size(); ++s) {
    if (valid[s]) {
      std::memcpy(out + s * sizeof(T), in + v * sizeof(T), sizeof(T));
      ++v;
    }
  }
}

class Assembler {
 public:
  Assembler(std::span<const ColumnDescriptor* const> descriptors, std::span<const LeafData> leaves,
            std::shared_ptr<MemoryTracker> tracker)
      : descriptors_(descriptors), leaves_(leaves), tracker_(std::move(tracker)) {}

  Result<Column> Build(const Field& field, LevelInfo info, bool force_required = false) {
    if (field.nullable() && !force_required) ++info.def;
    if (next_leaf_ >= leaves_.size()) return AssemblyError("fewer leaves than the schema has");
    const size_t first_leaf = next_leaf_;
    switch (field.type()->id()) {
      case TypeId::kList:
      case TypeId::kMap:
        return BuildList(field, info, first_leaf);
      case TypeId::kStruct:
        return BuildStruct(field, info, first_leaf);
      default:
        return BuildLeaf(field, info);
    }
  }

  size_t leaves_used() const { return next_leaf_; }

 private:
  // The slots of a node in the levels of leaf `leaf`: one byte per slot, 1 if valid.
  Status Slots(size_t leaf, const LevelInfo& info, std::vector<uint8_t>* valid) const {
    const LeafData& l = leaves_[leaf];
    const int16_t max_def = descriptors_[leaf]->max_definition_level;
    valid->clear();
    valid->reserve(static_cast<size_t>(l.num_levels));
    for (int64_t i = 0; i < l.num_levels; ++i) {
      const int16_t d = l.def_levels.empty() ? max_def : l.def_levels[i];
      const int16_t r = l.rep_levels.empty() ? 0 : l.rep_levels[i];
      if (d < info.ancestor_def || r > info.rep) continue;
      valid->push_back(d >= info.def);
    }
    return Status::OK();
  }

  Result<std::pair<BufferPtr, int64_t>> Validity(const std::vector<uint8_t>& valid) const {
    int64_t nulls = 0;
    for (uint8_t v : valid) nulls += v == 0;
    if (nulls == 0) return std::pair<BufferPtr, int64_t>{nullptr, 0};
    const int64_t n = static_cast<int64_t>(valid.size());
    SQE_ASSIGN_OR_RETURN(auto bits, Buffer::Allocate((n + 7) / 8, tracker_));
    uint8_t* out = bits->mutable_data();
    for (int64_t i = 0; i < n; ++i) out[i >> 3] |= static_cast<uint8_t>(valid[i] << (i & 7));
    return std::pair<BufferPtr, int64_t>{std::move(bits), nulls};
  }

  Result<Column> BuildStruct(const Field& field, const LevelInfo& info, size_t first_leaf) {
    std::vector<uint8_t> valid;
    SQE_RETURN_NOT_OK(Slots(first_leaf, info, &valid));
    const int64_t n = static_cast<int64_t>(valid.size());
    std::vector<Column> children;
    for (const Field& child : field.type()->fields()) {
      SQE_ASSIGN_OR_RETURN(Column c, Build(child, info));
      if (c.length() != n) {
        return AssemblyError("struct '" + field.name() + "' has " + std::to_string(n) +
                             " slots but its field '" + child.name() + "' " +
                             std::to_string(c.length()));
      }
      children.push_back(std::move(c));
    }
    SQE_ASSIGN_OR_RETURN(auto validity, Validity(valid));
    return Column::Make(field.type(), n, {std::move(validity.first)}, std::move(children),
                        validity.second);
  }

  Result<Column> BuildList(const Field& field, const LevelInfo& info, size_t first_leaf) {
    const LeafData& l = leaves_[first_leaf];
    const int16_t max_def = descriptors_[first_leaf]->max_definition_level;
    const int16_t element_def = static_cast<int16_t>(info.def + 1);
    const int16_t element_rep = static_cast<int16_t>(info.rep + 1);
    std::vector<uint8_t> valid;
    std::vector<int32_t> offsets;
    offsets.reserve(static_cast<size_t>(l.num_levels) + 1);
    int64_t count = 0;
    for (int64_t i = 0; i < l.num_levels; ++i) {
      const int16_t d = l.def_levels.empty() ? max_def : l.def_levels[i];
      const int16_t r = l.rep_levels.empty() ? 0 : l.rep_levels[i];
      if (d < info.ancestor_def) continue;
      if (r <= info.rep) {
        offsets.push_back(static_cast<int32_t>(count));
        valid.push_back(d >= info.def);
        if (d >= element_def) ++count;
      } else if (r == element_rep) {
        if (d < element_def || valid.empty()) {
          return AssemblyError("list '" + field.name() + "' repeats an element of an absent list");
        }
        ++count;
      }
      if (count > std::numeric_limits<int32_t>::max()) {
        return Status::ResourceExhausted("list '" + field.name() +
                                         "' holds more than 2^31 elements in one row group");
      }
    }
    offsets.push_back(static_cast<int32_t>(count));
    const int64_t n = static_cast<int64_t>(valid.size());
    LevelInfo child_info{element_def, element_rep, element_def};
    const Field& child_field = field.type()->value_field();
    // Map entries are never null: the repeated group itself is the entry.
    SQE_ASSIGN_OR_RETURN(Column child,
                         Build(child_field, child_info,
                               /*force_required=*/field.type()->id() == TypeId::kMap));
    if (child.length() != count) {
      return AssemblyError("list '" + field.name() + "' has " + std::to_string(count) +
                           " elements but its element column " + std::to_string(child.length()));
    }
    SQE_ASSIGN_OR_RETURN(auto validity, Validity(valid));
    SQE_ASSIGN_OR_RETURN(
        auto offsets_buf,
        Buffer::CopyOf(std::string_view(reinterpret_cast<const char*>(offsets.data()),
                                        offsets.size() * sizeof(int32_t)),
                       tracker_));
    return Column::Make(field.type(), n, {std::move(validity.first), std::move(offsets_buf)},
                        {std::move(child)}, validity.second);
  }

  Result<Column> BuildLeaf(const Field& field, const LevelInfo& info) {
    const size_t leaf = next_leaf_++;
    const ColumnDescriptor& d = *descriptors_[leaf];
    if (d.max_definition_level != info.def || d.max_repetition_level != info.rep) {
      return Status::NotImplemented("parquet column '" + field.name() + "': levels (" +
                                    std::to_string(d.max_definition_level) + ", " +
                                    std::to_string(d.max_repetition_level) +
                                    ") do not match the schema shape (" + std::to_string(info.def) +
                                    ", " + std::to_string(info.rep) + ")");
    }
    const Column& values = leaves_[leaf].values;
    if (values.type() == nullptr || !values.type()->Equals(*field.type())) {
      return AssemblyError("leaf '" + field.name() + "' values have the wrong type");
    }
    const LeafData& data = leaves_[leaf];
    // Flat leaves: every level is a slot; without nulls the values are the column.
    if (info.ancestor_def == 0 && data.rep_levels.empty()) {
      int64_t present = data.num_levels;
      if (!data.def_levels.empty()) {
        present = 0;
        for (int16_t d : data.def_levels) present += d >= info.def;
      }
      if (present == data.num_levels && present == values.length()) return values;
    }
    std::vector<uint8_t> valid;
    SQE_RETURN_NOT_OK(Slots(leaf, info, &valid));
    const int64_t n = static_cast<int64_t>(valid.size());
    int64_t present = 0;
    for (uint8_t v : valid) present += v;
    if (present != values.length()) {
      return AssemblyError("leaf '" + field.name() + "' has " + std::to_string(present) +
                           " defined slots but " + std::to_string(values.length()) + " values");
    }
    if (present == n) return values;
    SQE_ASSIGN_OR_RETURN(auto validity, Validity(valid));
    const columnar::DataType& type = *field.type();
    switch (type.layout()) {
      case columnar::Layout::kVarBinary: {
        SQE_ASSIGN_OR_RETURN(auto offsets, Buffer::Allocate((n + 1) * 4, tracker_));
        int32_t* o = offsets->mutable_data_as<int32_t>();
        const int32_t* in = values.Offsets();
        int64_t v = 0;
        o[0] = in[0];
        for (int64_t s = 0; s < n; ++s) {
          if (valid[s]) ++v;
          o[s + 1] = in[v];
        }
        return Column::Make(field.type(), n,
                            {std::move(validity.first), std::move(offsets), values.buffers()[2]},
                            {}, validity.second);
      }
      case columnar::Layout::kBitmap: {
        SQE_ASSIGN_OR_RETURN(auto bits, Buffer::Allocate((n + 7) / 8, tracker_));
        uint8_t* out = bits->mutable_data();
        int64_t v = 0;
        for (int64_t s = 0; s < n; ++s) {
          if (valid[s]) {
            if (values.BoolAt(v)) out[s >> 3] |= static_cast<uint8_t>(1u << (s & 7));
            ++v;
          }
        }
        return Column::Make(field.type(), n, {std::move(validity.first), std::move(bits)}, {},
                            validity.second);
      }
      case columnar::Layout::kFixedWidth: {
        const int64_t w = type.byte_width();
        SQE_ASSIGN_OR_RETURN(auto out, Buffer::Allocate(n * w, tracker_));
        const uint8_t* in = values.Values<uint8_t>();
        uint8_t* o = out->mutable_data();
        switch (w) {
          case 1:
            ScatterTyped<uint8_t>(in, valid, o);
            break;
          case 2:
            ScatterTyped<uint16_t>(in, valid, o);
            break;
          case 4:
            ScatterTyped<uint32_t>(in, valid, o);
            break;
          case 8:
            ScatterTyped<uint64_t>(in, valid, o);
            break;
          default: {
            int64_t v = 0;
            for (int64_t s = 0; s < n; ++s) {
              if (valid[s] && w > 0) std::memcpy(o + s * w, in + (v++) * w, w);
            }
          }
        }
        return Column::Make(field.type(), n, {std::move(validity.first), std::move(out)}, {},
                            validity.second);
      }
      default:
        return Status::Internal("leaf of nested type " + type.ToString());
    }
  }

  std::span<const ColumnDescriptor* const> descriptors_;
  std::span<const LeafData> leaves_;
  std::shared_ptr<MemoryTracker> tracker_;
  size_t next_leaf_ = 0;
};

}  // namespace

int CountLeaves(const columnar::DataType& type) {
  if (!type.is_nested()) return 1;
  int n = 0;
  if (type.id() == TypeId::kMap) {
    return CountLeaves(*type.key_field().type()) + CountLeaves(*type.item_field().type());
  }
  for (const Field& f : type.fields()) n += CountLeaves(*f.type());
  return n;
}

Result<Column> AssembleColumn(const Field& field,
                              std::span<const ColumnDescriptor* const> descriptors,
                              std::span<const LeafData> leaves, int64_t num_rows,
                              std::shared_ptr<MemoryTracker> tracker) {
  const size_t expected = static_cast<size_t>(CountLeaves(*field.type()));
  if (descriptors.size() != expected || leaves.size() != expected) {
    return Status::InvalidArgument("field '" + field.name() + "' has " + std::to_string(expected) +
                                   " leaves, got " + std::to_string(leaves.size()));
  }
  Assembler assembler(descriptors, leaves, std::move(tracker));
  SQE_ASSIGN_OR_RETURN(Column column, assembler.Build(field, LevelInfo{}));
  if (column.length() != num_rows) {
    return AssemblyError("column '" + field.name() + "' assembled " +
                         std::to_string(column.length()) + " rows, expected " +
                         std::to_string(num_rows));
  }
  return column;
}

}  // namespace sqe::parquet

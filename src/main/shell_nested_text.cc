// Nested values for the shell's text formats, in the Trino CLI's notation.

#include "main/shell_nested_text.h"

#include "main/shell_output.h"

namespace sqe::app {

using columnar::Column;
using columnar::TypeId;

Result<std::string> NestedCellText(const Column& column, int64_t row) {
  if (column.IsNull(row)) return std::string("NULL");
  const columnar::DataType& type = *column.type();
  std::string out;
  switch (type.id()) {
    case TypeId::kList: {
      const Column& values = column.ListValues();
      const int64_t start = column.ListStart(row);
      out = "[";
      for (int64_t i = 0; i < column.ListLength(row); ++i) {
        if (i > 0) out += ", ";
        SQE_ASSIGN_OR_RETURN(std::string item, NestedCellText(values, start + i));
        out += item;
      }
      return out + "]";
    }
    case TypeId::kMap: {
      const Column keys = column.MapKeys();
      const Column items = column.MapItems();
      const int64_t start = column.ListStart(row);
      out = "{";
      for (int64_t i = 0; i < column.ListLength(row); ++i) {
        if (i > 0) out += ", ";
        SQE_ASSIGN_OR_RETURN(std::string key, NestedCellText(keys, start + i));
        SQE_ASSIGN_OR_RETURN(std::string item, NestedCellText(items, start + i));
        out += key + "=" + item;
      }
      return out + "}";
    }
    case TypeId::kStruct: {
      out = "{";
      for (int f = 0; f < type.num_fields(); ++f) {
        if (f > 0) out += ", ";
        if (!type.field(f).name().empty()) out += type.field(f).name() + "=";
        SQE_ASSIGN_OR_RETURN(std::string value, NestedCellText(column.StructField(f), row));
        out += value;
      }
      return out + "}";
    }
    default:
      return CellText(column, row, "NULL");
  }
}

}  // namespace sqe::app

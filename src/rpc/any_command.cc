#include "rpc/any_command.h"

namespace sqe::rpc {

std::string PackAny(const google::protobuf::Message& message) {
  google::protobuf::Any any;
  any.PackFrom(message);
  return any.SerializeAsString();
}

Result<google::protobuf::Any> ParseAny(std::string_view bytes) {
  google::protobuf::Any any;
  if (!any.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return Status::InvalidArgument("the command is not a serialized google.protobuf.Any");
  }
  return any;
}

std::string AnyTypeName(const google::protobuf::Any& any) {
  const std::string& url = any.type_url();
  size_t slash = url.rfind('/');
  return slash == std::string::npos ? "" : url.substr(slash + 1);
}

}  // namespace sqe::rpc

#pragma once
/// Flight SQL commands travel as a serialized google.protobuf.Any (type URL
/// type.googleapis.com/arrow.flight.protocol.sql.<Message>) in FlightDescriptor.cmd,
/// Ticket.ticket, Action.body and Result.body. These helpers pack and unpack them; the
/// errors name the message type so a client sees what the server expected. Thread-safe.

#include <string>
#include <string_view>

#include <google/protobuf/any.pb.h>

#include "common/result.h"

namespace sqe::rpc {

/// The serialized Any holding `message`.
std::string PackAny(const google::protobuf::Message& message);

/// Parses a serialized Any; InvalidArgument when the bytes are not one.
Result<google::protobuf::Any> ParseAny(std::string_view bytes);

/// The message type name inside an Any ("arrow.flight.protocol.sql.CommandStatementQuery"),
/// or "" when the type URL has no '/'.
std::string AnyTypeName(const google::protobuf::Any& any);

/// `any` unpacked as T; InvalidArgument when it holds another type or does not parse.
template <typename T>
Result<T> UnpackAny(const google::protobuf::Any& any) {
  T message;
  if (!any.Is<T>()) {
    return Status::InvalidArgument("expected " + T::descriptor()->full_name() + ", got '" +
                                   AnyTypeName(any) + "'");
  }
  if (!any.UnpackTo(&message)) {
    return Status::InvalidArgument("malformed " + T::descriptor()->full_name());
  }
  return message;
}

}  // namespace sqe::rpc

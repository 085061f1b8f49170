#pragma once
/// The XML bodies of the S3 REST API that SQE sends and receives (ListObjectsV2,
/// CreateMultipartUpload, CompleteMultipartUpload, DeleteObjects, error responses), as
/// AWS's S3 API reference defines them. Parsers return Corruption naming the operation
/// when a required element is missing.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace sqe::io::s3 {

struct S3ObjectEntry {
  std::string key;
  int64_t size = 0;
  std::string etag;
};

struct ListObjectsPage {
  std::vector<S3ObjectEntry> objects;
  bool is_truncated = false;
  std::string next_continuation_token;
};

/// A ListBucketResult (ListObjectsV2). Keys are decoded when EncodingType is "url".
Result<ListObjectsPage> ParseListObjectsV2(std::string_view body);

/// The UploadId of an InitiateMultipartUploadResult.
Result<std::string> ParseInitiateMultipartUpload(std::string_view body);

/// An S3 <Error> body.
struct S3ErrorBody {
  std::string code;
  std::string message;
  std::string request_id;
};

/// The <Error> of a body, or nullopt when the body is not an S3 error document.
std::optional<S3ErrorBody> ParseErrorBody(std::string_view body);

struct CompletedPart {
  int part_number = 0;
  std::string etag;
};

/// A CompleteMultipartUpload request body listing `parts` (in order).
std::string BuildCompleteMultipartUpload(const std::vector<CompletedPart>& parts);

/// CompleteMultipartUpload can answer 200 with an <Error> body: nullopt for a
/// CompleteMultipartUploadResult, the error otherwise; Corruption for anything else.
Result<std::optional<S3ErrorBody>> ParseCompleteMultipartUpload(std::string_view body);

/// A DeleteObjects request body for up to 1000 keys.
std::string BuildDeleteObjects(const std::vector<std::string>& keys, bool quiet);

struct DeleteError {
  std::string key;
  std::string code;
  std::string message;
};

/// The <Error> entries of a DeleteResult (empty when every key was deleted).
Result<std::vector<DeleteError>> ParseDeleteObjectsResult(std::string_view body);

}  // namespace sqe::io::s3

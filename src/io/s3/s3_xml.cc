#include "io/s3/s3_xml.h"

#include <limits>

#include "net/xml_document.h"

namespace sqe::io::s3 {

namespace {

using net::XmlElement;

constexpr std::string_view kS3Namespace = "http://s3.amazonaws.com/doc/2006-03-01/";

std::string_view TrimSpace(std::string_view s) {
  auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

/// Parses `body` and checks its root is `root_name`; an <Error> root in its place becomes
/// a Corruption that quotes the server's code and message so the log says what happened.
Result<XmlElement> ParseRoot(std::string_view body, std::string_view root_name,
                             std::string_view operation) {
  Result<XmlElement> doc = net::ParseXml(body);
  if (!doc.ok()) return doc.status().WithContext(std::string(operation) + " response");
  if (doc->name == root_name) return doc;
  if (doc->name == "Error") {
    return Status::Corruption(std::string(operation) + " response is an S3 error (" +
                              doc->ChildText("Code") + ": " + doc->ChildText("Message") +
                              ") where <" + std::string(root_name) + "> was expected");
  }
  return Status::Corruption(std::string(operation) + " response has root element <" + doc->name +
                            ">, expected <" + std::string(root_name) + ">");
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/// Undoes S3's `encoding-type=url`. S3 encodes the way HTML forms do (Go's
/// url.QueryEscape, with '/' left alone): a space becomes '+' and a literal '+' becomes
/// %2B, so '+' decodes to a space here, as botocore (unquote_plus) and the Java SDK
/// (URLDecoder) decode it.
Result<std::string> UrlDecode(std::string_view encoded, std::string_view operation) {
  std::string out;
  out.reserve(encoded.size());
  for (size_t i = 0; i < encoded.size(); ++i) {
    const char c = encoded[i];
    if (c == '+') {
      out.push_back(' ');
    } else if (c == '%') {
      const int hi = i + 2 < encoded.size() ? HexValue(encoded[i + 1]) : -1;
      const int lo = hi >= 0 ? HexValue(encoded[i + 2]) : -1;
      if (lo < 0) {
        return Status::Corruption(std::string(operation) + ": invalid percent-encoding in key '" +
                                  std::string(encoded) + "' at position " + std::to_string(i));
      }
      out.push_back(static_cast<char>(hi * 16 + lo));
      i += 2;
    } else {
      out.push_back(c);
    }
  }
  return out;
}

Result<int64_t> ParseSize(std::string_view text, std::string_view key) {
  const std::string_view digits = TrimSpace(text);
  auto bad = [&]() {
    return Status::Corruption("ListObjectsV2: invalid <Size> '" + std::string(text) +
                              "' for key '" + std::string(key) + "'");
  };
  if (digits.empty()) return bad();
  int64_t value = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return bad();
    const int d = c - '0';
    if (value > (std::numeric_limits<int64_t>::max() - d) / 10) return bad();
    value = value * 10 + d;
  }
  return value;
}

Result<bool> ParseBool(std::string_view text, std::string_view element,
                       std::string_view operation) {
  const std::string_view v = TrimSpace(text);
  if (v == "true") return true;
  if (v == "false") return false;
  return Status::Corruption(std::string(operation) + ": <" + std::string(element) +
                            "> must be true or false, got '" + std::string(text) + "'");
}

S3ErrorBody ErrorFrom(const XmlElement& error) {
  S3ErrorBody out;
  out.code = error.ChildText("Code");
  out.message = error.ChildText("Message");
  out.request_id = error.ChildText("RequestId");
  return out;
}

}  // namespace

Result<ListObjectsPage> ParseListObjectsV2(std::string_view body) {
  constexpr std::string_view kOp = "ListObjectsV2";
  SQE_ASSIGN_OR_RETURN(XmlElement root, ParseRoot(body, "ListBucketResult", kOp));
  const bool url_encoded = TrimSpace(root.ChildText("EncodingType")) == "url";

  ListObjectsPage page;
  for (const XmlElement* contents : root.Children("Contents")) {
    const XmlElement* key = contents->Child("Key");
    if (key == nullptr) return Status::Corruption("ListObjectsV2: <Contents> without <Key>");
    S3ObjectEntry entry;
    if (url_encoded) {
      SQE_ASSIGN_OR_RETURN(entry.key, UrlDecode(key->text, kOp));
    } else {
      entry.key = key->text;
    }
    const XmlElement* size = contents->Child("Size");
    if (size == nullptr) {
      return Status::Corruption("ListObjectsV2: <Contents> for key '" + entry.key +
                                "' has no <Size>");
    }
    SQE_ASSIGN_OR_RETURN(entry.size, ParseSize(size->text, entry.key));
    entry.etag = contents->ChildText("ETag");
    page.objects.push_back(std::move(entry));
  }

  if (const XmlElement* truncated = root.Child("IsTruncated")) {
    SQE_ASSIGN_OR_RETURN(page.is_truncated, ParseBool(truncated->text, "IsTruncated", kOp));
  }
  page.next_continuation_token = root.ChildText("NextContinuationToken");
  // Without a token a truncated listing cannot continue; accepting it would make the
  // caller restart from the beginning forever.
  if (page.is_truncated && page.next_continuation_token.empty()) {
    return Status::Corruption(
        "ListObjectsV2: <IsTruncated> is true but <NextContinuationToken> is missing");
  }
  return page;
}

Result<std::string> ParseInitiateMultipartUpload(std::string_view body) {
  SQE_ASSIGN_OR_RETURN(XmlElement root,
                       ParseRoot(body, "InitiateMultipartUploadResult", "CreateMultipartUpload"));
  std::string upload_id = root.ChildText("UploadId");
  if (upload_id.empty()) {
    return Status::Corruption(
        "CreateMultipartUpload: <InitiateMultipartUploadResult> has no <UploadId>");
  }
  return upload_id;
}

std::optional<S3ErrorBody> ParseErrorBody(std::string_view body) {
  Result<XmlElement> doc = net::ParseXml(body);
  if (!doc.ok() || doc->name != "Error") return std::nullopt;
  return ErrorFrom(*doc);
}

std::string BuildCompleteMultipartUpload(const std::vector<CompletedPart>& parts) {
  std::string out = "<CompleteMultipartUpload xmlns=\"";
  out += kS3Namespace;
  out += "\">";
  for (const CompletedPart& part : parts) {
    out += "<Part><PartNumber>";
    out += std::to_string(part.part_number);
    out += "</PartNumber><ETag>";
    out += net::XmlEscape(part.etag);
    out += "</ETag></Part>";
  }
  out += "</CompleteMultipartUpload>";
  return out;
}

Result<std::optional<S3ErrorBody>> ParseCompleteMultipartUpload(std::string_view body) {
  Result<XmlElement> doc = net::ParseXml(body);
  if (!doc.ok()) return doc.status().WithContext("CompleteMultipartUpload response");
  if (doc->name == "CompleteMultipartUploadResult") return std::optional<S3ErrorBody>();
  if (doc->name == "Error") return std::optional<S3ErrorBody>(ErrorFrom(*doc));
  return Status::Corruption("CompleteMultipartUpload response has root element <" + doc->name +
                            ">, expected <CompleteMultipartUploadResult> or <Error>");
}

std::string BuildDeleteObjects(const std::vector<std::string>& keys, bool quiet) {
  std::string out = "<Delete xmlns=\"";
  out += kS3Namespace;
  out += "\"><Quiet>";
  out += quiet ? "true" : "false";
  out += "</Quiet>";
  for (const std::string& key : keys) {
    out += "<Object><Key>";
    out += net::XmlEscape(key);
    out += "</Key></Object>";
  }
  out += "</Delete>";
  return out;
}

Result<std::vector<DeleteError>> ParseDeleteObjectsResult(std::string_view body) {
  SQE_ASSIGN_OR_RETURN(XmlElement root, ParseRoot(body, "DeleteResult", "DeleteObjects"));
  std::vector<DeleteError> errors;
  for (const XmlElement* error : root.Children("Error")) {
    DeleteError e;
    e.key = error->ChildText("Key");
    e.code = error->ChildText("Code");
    e.message = error->ChildText("Message");
    if (e.key.empty()) {
      return Status::Corruption("DeleteObjects: <Error> entry (" + e.code + ") has no <Key>");
    }
    errors.push_back(std::move(e));
  }
  return errors;
}

}  // namespace sqe::io::s3

#include "net/sigv4.h"

#include <gtest/gtest.h>

namespace sqe::net {
namespace {

// AWS's published S3 example ("Examples: Signature Calculations in AWS Signature Version
// 4", GET Object): the first 10 bytes of examplebucket/test.txt at 2013-05-24T00:00:00Z.
constexpr int64_t kExampleTime = 1369353600;

AwsCredentials ExampleCredentials() {
  AwsCredentials c;
  c.access_key_id = "AKIAIOSFODNN7EXAMPLE";
  c.secret_access_key = SecretString("wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY");
  return c;
}

SignableRequest ExampleGet() {
  SignableRequest r;
  r.method = "GET";
  r.path = "/test.txt";
  r.headers = {{"Host", "examplebucket.s3.amazonaws.com"}, {"Range", "bytes=0-9"}};
  return r;
}

std::string HeaderOf(const SignedRequest& s, const std::string& name) {
  for (const auto& [k, v] : s.headers) {
    if (k == name) return v;
  }
  return "";
}

TEST(SigV4Test, MatchesAwsS3GetObjectExample) {
  auto signed_request =
      SignRequest(ExampleGet(), ExampleCredentials(), "us-east-1", "s3", kExampleTime);
  ASSERT_TRUE(signed_request.ok()) << signed_request.status().ToString();
  EXPECT_EQ(signed_request->canonical_request,
            "GET\n/test.txt\n\nhost:examplebucket.s3.amazonaws.com\nrange:bytes=0-9\n"
            "x-amz-content-sha256:"
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\n"
            "x-amz-date:20130524T000000Z\n\nhost;range;x-amz-content-sha256;x-amz-date\n"
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(signed_request->string_to_sign,
            "AWS4-HMAC-SHA256\n20130524T000000Z\n20130524/us-east-1/s3/aws4_request\n"
            "7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972");
  EXPECT_EQ(HeaderOf(*signed_request, "authorization"),
            "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/"
            "aws4_request,SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,"
            "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
  EXPECT_EQ(HeaderOf(*signed_request, "x-amz-date"), "20130524T000000Z");
}

// AWS's PUT Object example: key "test$file.text" ('$' is %24 in the canonical URI), a
// signed body hash and an extra signed header.
TEST(SigV4Test, MatchesAwsS3PutObjectExampleWithSpecialCharacterKey) {
  const std::string body = "Welcome to Amazon S3.";
  SignableRequest r;
  r.method = "PUT";
  r.path = "/" + UriEncode("test$file.text", false);
  r.headers = {{"Host", "examplebucket.s3.amazonaws.com"},
               {"Date", "Fri, 24 May 2013 00:00:00 GMT"},
               {"x-amz-storage-class", "REDUCED_REDUNDANCY"}};
  r.payload_sha256 = Sha256Hex(body);
  EXPECT_EQ(r.payload_sha256, "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072");
  auto s = SignRequest(r, ExampleCredentials(), "us-east-1", "s3", kExampleTime);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(
      s->canonical_request,
      "PUT\n/test%24file.text\n\ndate:Fri, 24 May 2013 00:00:00 GMT\n"
      "host:examplebucket.s3.amazonaws.com\n"
      "x-amz-content-sha256:44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072\n"
      "x-amz-date:20130524T000000Z\nx-amz-storage-class:REDUCED_REDUNDANCY\n\n"
      "date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class\n"
      "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072");
  EXPECT_EQ(s->string_to_sign,
            "AWS4-HMAC-SHA256\n20130524T000000Z\n20130524/us-east-1/s3/aws4_request\n"
            "9e0e90d9c76de8fa5b200d8c849cd5b8dc7a3be3951ddb7f6a76b4158342019d");
  EXPECT_EQ(HeaderOf(*s, "authorization"),
            "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/"
            "aws4_request,SignedHeaders=date;host;x-amz-content-sha256;x-amz-date;"
            "x-amz-storage-class,"
            "Signature=98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd");
}

// AWS's ListObjects example: GET /?max-keys=2&prefix=J (query given out of order).
TEST(SigV4Test, MatchesAwsS3ListObjectsExample) {
  SignableRequest r;
  r.method = "GET";
  r.path = "/";
  r.query = {{"prefix", "J"}, {"max-keys", "2"}};
  r.headers = {{"Host", "examplebucket.s3.amazonaws.com"}};
  auto s = SignRequest(r, ExampleCredentials(), "us-east-1", "s3", kExampleTime);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_NE(s->canonical_request.find("GET\n/\nmax-keys=2&prefix=J\n"), std::string::npos)
      << s->canonical_request;
  EXPECT_NE(HeaderOf(*s, "authorization")
                .find("Signature=34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7"),
            std::string::npos)
      << HeaderOf(*s, "authorization");
}

TEST(SigV4Test, SessionTokenIsSignedAndSecretNeverAppears) {
  AwsCredentials c = ExampleCredentials();
  c.session_token = "token/with+chars";
  auto s = SignRequest(ExampleGet(), c, "us-east-1", "s3", kExampleTime);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(HeaderOf(*s, "x-amz-security-token"), "token/with+chars");
  EXPECT_NE(HeaderOf(*s, "authorization").find("x-amz-security-token"), std::string::npos);
  for (const auto& [k, v] : s->headers) {
    EXPECT_EQ(v.find("wJalrXUtnFEMI"), std::string::npos) << k;
  }
  EXPECT_EQ(s->canonical_request.find("wJalrXUtnFEMI"), std::string::npos);
  EXPECT_EQ(s->string_to_sign.find("wJalrXUtnFEMI"), std::string::npos);
}

TEST(SigV4Test, QueryIsEncodedAndSorted) {
  SignableRequest r = ExampleGet();
  r.path = "/";
  r.query = {{"prefix", "a b/c"}, {"list-type", "2"}, {"continuation-token", ""}};
  auto s = SignRequest(r, ExampleCredentials(), "eu-west-1", "s3", kExampleTime);
  ASSERT_TRUE(s.ok());
  EXPECT_NE(s->canonical_request.find("\ncontinuation-token=&list-type=2&prefix=a%20b%2Fc\n"),
            std::string::npos)
      << s->canonical_request;
}

TEST(SigV4Test, HeaderValuesAreTrimmedAndCollapsed) {
  SignableRequest r = ExampleGet();
  r.headers.emplace_back("X-Custom", "  a   b  ");
  auto s = SignRequest(r, ExampleCredentials(), "us-east-1", "s3", kExampleTime);
  ASSERT_TRUE(s.ok());
  EXPECT_NE(s->canonical_request.find("\nx-custom:a b\n"), std::string::npos);
}

TEST(SigV4Test, RejectsMissingHostAndCredentials) {
  SignableRequest r = ExampleGet();
  r.headers = {{"Range", "bytes=0-9"}};
  EXPECT_EQ(SignRequest(r, ExampleCredentials(), "us-east-1", "s3", 0).status().code(),
            StatusCode::kInvalidArgument);
  AwsCredentials none;
  auto s = SignRequest(ExampleGet(), none, "us-east-1", "s3", 0);
  EXPECT_EQ(s.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.status().message().find("AWS_ACCESS_KEY_ID"), std::string::npos);
}

TEST(SigV4Test, UriEncodeAndHelpers) {
  EXPECT_EQ(UriEncode("a b/c~d_e-f.g*", false), "a%20b/c~d_e-f.g%2A");
  EXPECT_EQ(UriEncode("a/b", true), "a%2Fb");
  EXPECT_EQ(UriEncode("é", true), "%C3%A9");
  EXPECT_EQ(Sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(AmzDate(0), "19700101T000000Z");
}

}  // namespace
}  // namespace sqe::net

#include "io/s3/s3_xml.h"

#include <gtest/gtest.h>

#include "net/xml_document.h"

namespace sqe::io::s3 {
namespace {

// Bodies below follow the shapes of the examples in AWS's S3 API reference; the values
// are made up.

TEST(S3XmlTest, ParsesListObjectsV2Page) {
  Result<ListObjectsPage> page = ParseListObjectsV2(R"(<?xml version="1.0" encoding="UTF-8"?>
<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
  <Name>lake</Name>
  <Prefix>warehouse/</Prefix>
  <KeyCount>2</KeyCount>
  <MaxKeys>1000</MaxKeys>
  <IsTruncated>false</IsTruncated>
  <Contents>
    <Key>warehouse/sales/data/00000-0.parquet</Key>
    <LastModified>2026-01-10T17:50:30.000Z</LastModified>
    <ETag>"599bab3ed2c697f1d26842727561fd94"</ETag>
    <Size>857</Size>
    <StorageClass>STANDARD</StorageClass>
  </Contents>
  <Contents>
    <Key>warehouse/sales/metadata/v1.metadata.json</Key>
    <LastModified>2026-01-10T17:50:31.000Z</LastModified>
    <ETag>&quot;9c8af9a76df052144598c115ef33e511-2&quot;</ETag>
    <Size>10485760000</Size>
    <StorageClass>STANDARD</StorageClass>
  </Contents>
</ListBucketResult>
)");
  ASSERT_TRUE(page.ok()) << page.status().ToString();
  EXPECT_FALSE(page->is_truncated);
  EXPECT_EQ(page->next_continuation_token, "");
  ASSERT_EQ(page->objects.size(), 2u);
  EXPECT_EQ(page->objects[0].key, "warehouse/sales/data/00000-0.parquet");
  EXPECT_EQ(page->objects[0].size, 857);
  EXPECT_EQ(page->objects[0].etag, "\"599bab3ed2c697f1d26842727561fd94\"");
  EXPECT_EQ(page->objects[1].key, "warehouse/sales/metadata/v1.metadata.json");
  EXPECT_EQ(page->objects[1].size, 10485760000LL);
  EXPECT_EQ(page->objects[1].etag, "\"9c8af9a76df052144598c115ef33e511-2\"");
}

TEST(S3XmlTest, EmptyListing) {
  Result<ListObjectsPage> page = ParseListObjectsV2(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<ListBucketResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><Name>lake</Name>"
      "<Prefix>nothing/</Prefix><KeyCount>0</KeyCount><MaxKeys>1000</MaxKeys>"
      "<IsTruncated>false</IsTruncated></ListBucketResult>");
  ASSERT_TRUE(page.ok()) << page.status().ToString();
  EXPECT_TRUE(page->objects.empty());
  EXPECT_FALSE(page->is_truncated);
}

TEST(S3XmlTest, TruncatedListingCarriesToken) {
  Result<ListObjectsPage> page = ParseListObjectsV2(
      "<ListBucketResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><Name>lake</Name>"
      "<KeyCount>1</KeyCount><MaxKeys>1</MaxKeys><IsTruncated>true</IsTruncated>"
      "<ContinuationToken>1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=</ContinuationToken>"
      "<NextContinuationToken>1Xs2+Ft/9Jz7=</NextContinuationToken>"
      "<Contents><Key>a.txt</Key><Size>0</Size><ETag>\"d41d8cd98f00b204e9800998ecf8427e\"</ETag>"
      "</Contents></ListBucketResult>");
  ASSERT_TRUE(page.ok()) << page.status().ToString();
  EXPECT_TRUE(page->is_truncated);
  // Tokens are opaque: not URL-decoded, '+' kept.
  EXPECT_EQ(page->next_continuation_token, "1Xs2+Ft/9Jz7=");
  ASSERT_EQ(page->objects.size(), 1u);
  EXPECT_EQ(page->objects[0].size, 0);
}

TEST(S3XmlTest, TruncatedListingWithoutTokenIsCorruption) {
  Result<ListObjectsPage> page =
      ParseListObjectsV2("<ListBucketResult><IsTruncated>true</IsTruncated></ListBucketResult>");
  ASSERT_FALSE(page.ok());
  EXPECT_EQ(page.status().code(), StatusCode::kCorruption);
  EXPECT_NE(page.status().message().find("NextContinuationToken"), std::string::npos);
}

TEST(S3XmlTest, EntitiesInKeysAreDecoded) {
  Result<ListObjectsPage> page = ParseListObjectsV2(
      "<ListBucketResult><IsTruncated>false</IsTruncated>"
      "<Contents><Key>dir/a&amp;b&lt;c&gt;.txt</Key><Size>3</Size></Contents>"
      "<Contents><Key>&quot;quoted&quot; &apos;s&apos; &#xE9;</Key><Size>4</Size></Contents>"
      "</ListBucketResult>");
  ASSERT_TRUE(page.ok()) << page.status().ToString();
  ASSERT_EQ(page->objects.size(), 2u);
  EXPECT_EQ(page->objects[0].key, "dir/a&b<c>.txt");
  EXPECT_EQ(page->objects[1].key, "\"quoted\" 's' \xC3\xA9");
  EXPECT_EQ(page->objects[1].etag, "");
}

TEST(S3XmlTest, UrlEncodedKeysAreDecoded) {
  Result<ListObjectsPage> page = ParseListObjectsV2(
      "<ListBucketResult><EncodingType>url</EncodingType><IsTruncated>false</IsTruncated>"
      "<Contents><Key>dir/a%26b%3Cc%3E.txt</Key><Size>1</Size></Contents>"
      "<Contents><Key>my+file%2B1%20x%C3%A9</Key><Size>2</Size></Contents>"
      "</ListBucketResult>");
  ASSERT_TRUE(page.ok()) << page.status().ToString();
  ASSERT_EQ(page->objects.size(), 2u);
  EXPECT_EQ(page->objects[0].key, "dir/a&b<c>.txt");
  // S3 form-encodes: '+' is a space, a literal plus arrives as %2B.
  EXPECT_EQ(page->objects[1].key, "my file+1 x\xC3\xA9");

  // Without EncodingType the same text is taken literally.
  Result<ListObjectsPage> literal = ParseListObjectsV2(
      "<ListBucketResult><Contents><Key>my+file%2B1</Key><Size>2</Size></Contents>"
      "</ListBucketResult>");
  ASSERT_TRUE(literal.ok()) << literal.status().ToString();
  EXPECT_EQ(literal->objects[0].key, "my+file%2B1");
}

TEST(S3XmlTest, BadPercentEncodingIsCorruption) {
  for (const char* key : {"a%2", "a%zz", "%"}) {
    Result<ListObjectsPage> page = ParseListObjectsV2(
        std::string("<ListBucketResult><EncodingType>url</EncodingType><Contents><Key>") + key +
        "</Key><Size>1</Size></Contents></ListBucketResult>");
    ASSERT_FALSE(page.ok()) << key;
    EXPECT_EQ(page.status().code(), StatusCode::kCorruption);
  }
}

TEST(S3XmlTest, ListingErrors) {
  auto expect_corruption = [](std::string_view body, std::string_view fragment) {
    Result<ListObjectsPage> page = ParseListObjectsV2(body);
    ASSERT_FALSE(page.ok()) << body;
    EXPECT_EQ(page.status().code(), StatusCode::kCorruption);
    EXPECT_NE(page.status().message().find(fragment), std::string::npos)
        << page.status().ToString();
    EXPECT_NE(page.status().message().find("ListObjectsV2"), std::string::npos)
        << page.status().ToString();
  };
  expect_corruption(
      "<ListBucketResult><Contents><Key>k</Key><Size>12x</Size></Contents>"
      "</ListBucketResult>",
      "Size");
  expect_corruption(
      "<ListBucketResult><Contents><Key>k</Key><Size>-1</Size></Contents>"
      "</ListBucketResult>",
      "Size");
  expect_corruption(
      "<ListBucketResult><Contents><Key>k</Key><Size>99999999999999999999</Size>"
      "</Contents></ListBucketResult>",
      "Size");
  expect_corruption(
      "<ListBucketResult><Contents><Key>k</Key><Size></Size></Contents>"
      "</ListBucketResult>",
      "Size");
  expect_corruption("<ListBucketResult><Contents><Key>k</Key></Contents></ListBucketResult>",
                    "no <Size>");
  expect_corruption("<ListBucketResult><Contents><Size>1</Size></Contents></ListBucketResult>",
                    "without <Key>");
  expect_corruption("<ListBucketResult><IsTruncated>maybe</IsTruncated></ListBucketResult>",
                    "IsTruncated");
  expect_corruption("<ListAllMyBucketsResult/>", "ListBucketResult");
  expect_corruption("<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>",
                    "AccessDenied");
  expect_corruption("<ListBucketResult><Contents>", "malformed XML");
}

TEST(S3XmlTest, ParsesInitiateMultipartUpload) {
  Result<std::string> id = ParseInitiateMultipartUpload(R"(<?xml version="1.0" encoding="UTF-8"?>
<InitiateMultipartUploadResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
  <Bucket>lake</Bucket>
  <Key>warehouse/big.parquet</Key>
  <UploadId>VXBsb2FkIElEIGZvciA2aWWpbmcncyBteS1tb3ZpZS5tMnRzIHVwbG9hZA</UploadId>
</InitiateMultipartUploadResult>)");
  ASSERT_TRUE(id.ok()) << id.status().ToString();
  EXPECT_EQ(*id, "VXBsb2FkIElEIGZvciA2aWWpbmcncyBteS1tb3ZpZS5tMnRzIHVwbG9hZA");

  Result<std::string> missing = ParseInitiateMultipartUpload(
      "<InitiateMultipartUploadResult><Bucket>b</Bucket>"
      "</InitiateMultipartUploadResult>");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kCorruption);
  EXPECT_NE(missing.status().message().find("UploadId"), std::string::npos);
  EXPECT_FALSE(ParseInitiateMultipartUpload("<Other/>").ok());
}

TEST(S3XmlTest, ParsesMotoStyleErrorBody) {
  std::optional<S3ErrorBody> error = ParseErrorBody(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<Error>\n"
      "    <Code>NoSuchKey</Code>\n"
      "    <Message>The specified key does not exist.</Message>\n"
      "    <Key>warehouse/missing.parquet</Key>\n"
      "    <RequestId>7a62c49f-347e-4fc4-9331-6e8eEXAMPLE</RequestId>\n"
      "    "
      "<HostId>9Gjjt1m+cjU4OPvX9O9/8RuvnG41MRb/18Oux2o5H5MY7ISNTlXN+Dz9IG62/ILVxhAGI0qyPfg=</"
      "HostId>\n"
      "</Error>");
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->code, "NoSuchKey");
  EXPECT_EQ(error->message, "The specified key does not exist.");
  EXPECT_EQ(error->request_id, "7a62c49f-347e-4fc4-9331-6e8eEXAMPLE");
}

TEST(S3XmlTest, NonErrorBodiesAreNotErrors) {
  EXPECT_FALSE(ParseErrorBody("").has_value());
  EXPECT_FALSE(ParseErrorBody("<html><body>502 Bad Gateway</body></html>").has_value());
  EXPECT_FALSE(ParseErrorBody("Service Unavailable").has_value());
  EXPECT_FALSE(ParseErrorBody("{\"message\": \"nope\"}").has_value());
  EXPECT_FALSE(ParseErrorBody("<Error><Code>Trunc").has_value());
  EXPECT_FALSE(ParseErrorBody("<ListBucketResult/>").has_value());
}

TEST(S3XmlTest, BuildsCompleteMultipartUpload) {
  std::string body = BuildCompleteMultipartUpload(
      {{1, "\"a54357aff0632cce46d942af68356b38\""}, {2, "\"0c78aef83f66abc1fa1e8477f296d394\""}});
  EXPECT_EQ(body,
            "<CompleteMultipartUpload xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
            "<Part><PartNumber>1</PartNumber><ETag>&quot;a54357aff0632cce46d942af68356b38&quot;"
            "</ETag></Part>"
            "<Part><PartNumber>2</PartNumber><ETag>&quot;0c78aef83f66abc1fa1e8477f296d394&quot;"
            "</ETag></Part>"
            "</CompleteMultipartUpload>");
  Result<net::XmlElement> doc = net::ParseXml(body);
  ASSERT_TRUE(doc.ok()) << doc.status().ToString();
  std::vector<const net::XmlElement*> parts = doc->Children("Part");
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(parts[1]->ChildText("PartNumber"), "2");
  EXPECT_EQ(parts[1]->ChildText("ETag"), "\"0c78aef83f66abc1fa1e8477f296d394\"");
}

TEST(S3XmlTest, ParsesCompleteMultipartUploadOutcomes) {
  Result<std::optional<S3ErrorBody>> ok =
      ParseCompleteMultipartUpload(R"(<?xml version="1.0" encoding="UTF-8"?>
<CompleteMultipartUploadResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
  <Location>https://lake.s3.amazonaws.com/big.parquet</Location>
  <Bucket>lake</Bucket>
  <Key>big.parquet</Key>
  <ETag>"3858f62230ac3c915f300c664312c11f-9"</ETag>
</CompleteMultipartUploadResult>)");
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_FALSE(ok->has_value());

  // S3 may send whitespace while it works, then a 200 whose body is an error.
  Result<std::optional<S3ErrorBody>> failed = ParseCompleteMultipartUpload(
      "\n\n\n<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>InternalError</Code>"
      "<Message>We encountered an internal error. Please try again.</Message>"
      "<RequestId>656c76696e6727732072657175657374</RequestId></Error>");
  ASSERT_TRUE(failed.ok()) << failed.status().ToString();
  ASSERT_TRUE(failed->has_value());
  EXPECT_EQ((*failed)->code, "InternalError");
  EXPECT_EQ((*failed)->request_id, "656c76696e6727732072657175657374");

  Result<std::optional<S3ErrorBody>> other = ParseCompleteMultipartUpload("<Something/>");
  ASSERT_FALSE(other.ok());
  EXPECT_EQ(other.status().code(), StatusCode::kCorruption);
  Result<std::optional<S3ErrorBody>> garbage = ParseCompleteMultipartUpload("<Complete");
  ASSERT_FALSE(garbage.ok());
  EXPECT_EQ(garbage.status().code(), StatusCode::kCorruption);
}

TEST(S3XmlTest, BuildsDeleteObjectsAndRoundTrips) {
  const std::vector<std::string> keys = {"plain.txt", "a&b<c>.txt", "q\"uote's", "dir/\xC3\xA9"};
  std::string body = BuildDeleteObjects(keys, /*quiet=*/true);
  EXPECT_EQ(body.rfind("<Delete xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><Quiet>true"
                       "</Quiet><Object><Key>plain.txt</Key></Object>"
                       "<Object><Key>a&amp;b&lt;c&gt;.txt</Key></Object>",
                       0),
            0u)
      << body;
  Result<net::XmlElement> doc = net::ParseXml(body);
  ASSERT_TRUE(doc.ok()) << doc.status().ToString();
  EXPECT_EQ(doc->name, "Delete");
  EXPECT_EQ(doc->ChildText("Quiet"), "true");
  std::vector<const net::XmlElement*> objects = doc->Children("Object");
  ASSERT_EQ(objects.size(), keys.size());
  for (size_t i = 0; i < keys.size(); ++i) EXPECT_EQ(objects[i]->ChildText("Key"), keys[i]);

  Result<net::XmlElement> loud = net::ParseXml(BuildDeleteObjects({}, /*quiet=*/false));
  ASSERT_TRUE(loud.ok());
  EXPECT_EQ(loud->ChildText("Quiet"), "false");
  EXPECT_TRUE(loud->Children("Object").empty());
}

TEST(S3XmlTest, ParsesDeleteResult) {
  Result<std::vector<DeleteError>> errors =
      ParseDeleteObjectsResult(R"(<?xml version="1.0" encoding="UTF-8"?>
<DeleteResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
  <Deleted>
    <Key>sample1.txt</Key>
  </Deleted>
  <Error>
    <Key>a&amp;b&lt;c&gt;.txt</Key>
    <Code>AccessDenied</Code>
    <Message>Access Denied</Message>
  </Error>
  <Error>
    <Key>locked.parquet</Key>
    <Code>InternalError</Code>
    <Message>We encountered an internal error. Please try again.</Message>
  </Error>
</DeleteResult>)");
  ASSERT_TRUE(errors.ok()) << errors.status().ToString();
  ASSERT_EQ(errors->size(), 2u);
  EXPECT_EQ((*errors)[0].key, "a&b<c>.txt");
  EXPECT_EQ((*errors)[0].code, "AccessDenied");
  EXPECT_EQ((*errors)[0].message, "Access Denied");
  EXPECT_EQ((*errors)[1].key, "locked.parquet");
  EXPECT_EQ((*errors)[1].code, "InternalError");

  Result<std::vector<DeleteError>> all_deleted = ParseDeleteObjectsResult(
      "<DeleteResult><Deleted><Key>x</Key></Deleted><Deleted><Key>y</Key></Deleted>"
      "</DeleteResult>");
  ASSERT_TRUE(all_deleted.ok()) << all_deleted.status().ToString();
  EXPECT_TRUE(all_deleted->empty());
  // Quiet mode with nothing failing answers an empty DeleteResult.
  Result<std::vector<DeleteError>> quiet = ParseDeleteObjectsResult("<DeleteResult/>");
  ASSERT_TRUE(quiet.ok());
  EXPECT_TRUE(quiet->empty());

  Result<std::vector<DeleteError>> whole_error =
      ParseDeleteObjectsResult("<Error><Code>MalformedXML</Code><Message>bad</Message></Error>");
  ASSERT_FALSE(whole_error.ok());
  EXPECT_EQ(whole_error.status().code(), StatusCode::kCorruption);
  EXPECT_NE(whole_error.status().message().find("MalformedXML"), std::string::npos);
  EXPECT_FALSE(ParseDeleteObjectsResult("not xml").ok());
}

}  // namespace
}  // namespace sqe::io::s3

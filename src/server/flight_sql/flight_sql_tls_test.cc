// [coordinator.tls] on the Flight SQL listener: loading and checking the PEM files (errors
// name the field and the path, never the key), and real TLS / mTLS connections from a gRPC
// client (our generated stub) to the listener on 127.0.0.1. The certificates are made here
// with OpenSSL: a CA, a server certificate for 127.0.0.1 / localhost and a client one.

#include "server/flight_sql/flight_sql_tls.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <memory>

#include <grpcpp/client_context.h>
#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "auth/anonymous_authenticator.h"
#include "columnar/test_columns.h"
#include "engine/testing_engine.h"
#include "server/flight_sql/flight_sql_listener.h"

namespace sqe::server::flight_sql {
namespace {

namespace fp = ::arrow::flight::protocol;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

struct KeyDeleter {
  void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
};
struct CertDeleter {
  void operator()(X509* x) const { X509_free(x); }
};
using Key = std::unique_ptr<EVP_PKEY, KeyDeleter>;
using Cert = std::unique_ptr<X509, CertDeleter>;

Key NewKey() { return Key(EVP_EC_gen("P-256")); }

void AddExtension(X509* cert, X509* issuer, int nid, const char* value) {
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
  X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value);
  ASSERT_NE(ext, nullptr) << value;
  X509_add_ext(cert, ext, -1);
  X509_EXTENSION_free(ext);
}

/// A certificate for `key` named `cn`, signed by issuer/issuer_key (self-signed when null).
Cert NewCert(const char* cn, EVP_PKEY* key, X509* issuer, EVP_PKEY* issuer_key, bool ca,
             const char* san, long serial) {
  Cert cert(X509_new());
  X509_set_version(cert.get(), 2);
  ASN1_INTEGER_set(X509_get_serialNumber(cert.get()), serial);
  X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600);
  X509_gmtime_adj(X509_getm_notAfter(cert.get()), 24 * 3600);
  X509_set_pubkey(cert.get(), key);
  X509_NAME* name = X509_get_subject_name(cert.get());
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>(cn),
                             -1, -1, 0);
  X509* signer = issuer != nullptr ? issuer : cert.get();
  X509_set_issuer_name(cert.get(), X509_get_subject_name(signer));
  AddExtension(cert.get(), signer, NID_basic_constraints, ca ? "critical,CA:TRUE" : "CA:FALSE");
  if (ca) AddExtension(cert.get(), signer, NID_key_usage, "critical,keyCertSign,cRLSign");
  if (san != nullptr) AddExtension(cert.get(), signer, NID_subject_alt_name, san);
  X509_sign(cert.get(), issuer_key != nullptr ? issuer_key : key, EVP_sha256());
  return cert;
}

std::string CertPem(X509* cert) {
  BIO* bio = BIO_new(BIO_s_mem());
  PEM_write_bio_X509(bio, cert);
  char* data = nullptr;
  long n = BIO_get_mem_data(bio, &data);
  std::string pem(data, static_cast<size_t>(n));
  BIO_free(bio);
  return pem;
}

std::string KeyPem(EVP_PKEY* key) {
  BIO* bio = BIO_new(BIO_s_mem());
  PEM_write_bio_PrivateKey(bio, key, nullptr, nullptr, 0, nullptr, nullptr);
  char* data = nullptr;
  long n = BIO_get_mem_data(bio, &data);
  std::string pem(data, static_cast<size_t>(n));
  BIO_free(bio);
  return pem;
}

/// A CA, a server certificate (SAN 127.0.0.1 and localhost) and a client certificate, as PEM
/// text and as files in a fresh directory; and another CA that signed none of them.
class TlsMaterial {
 public:
  TlsMaterial() : dir_(engine::testing::FreshTestDirectory("sqe-flight-tls-")) {
    Key ca_key = NewKey();
    Cert ca = NewCert("sqe test CA", ca_key.get(), nullptr, nullptr, true, nullptr, 1);
    Key server_key = NewKey();
    Cert server = NewCert("localhost", server_key.get(), ca.get(), ca_key.get(), false,
                          "IP:127.0.0.1,DNS:localhost", 2);
    Key client_key = NewKey();
    Cert client = NewCert("alice", client_key.get(), ca.get(), ca_key.get(), false, nullptr, 3);
    Key other_key = NewKey();
    Cert other = NewCert("another CA", other_key.get(), nullptr, nullptr, true, nullptr, 4);
    ca_pem = CertPem(ca.get());
    other_ca_pem = CertPem(other.get());
    server_cert_pem = CertPem(server.get());
    server_key_pem = KeyPem(server_key.get());
    client_cert_pem = CertPem(client.get());
    client_key_pem = KeyPem(client_key.get());
    ca_file = Write("ca.pem", ca_pem);
    server_cert_file = Write("server.pem", server_cert_pem);
    server_key_file = Write("server.key", server_key_pem);
    client_key_file = Write("client.key", client_key_pem);
  }
  ~TlsMaterial() { std::filesystem::remove_all(dir_); }

  std::string Write(const std::string& name, const std::string& text) const {
    std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }

  std::string ca_pem, other_ca_pem, server_cert_pem, server_key_pem, client_cert_pem,
      client_key_pem;
  std::string ca_file, server_cert_file, server_key_file, client_key_file;

 private:
  std::filesystem::path dir_;
};

TEST(FlightSqlTlsTest, LoadsCertificateKeyAndClientCa) {
  TlsMaterial m;
  auto tls = LoadFlightSqlTls({m.server_cert_file, m.server_key_file, ""});
  ASSERT_TRUE(tls.ok()) << tls.status().message();
  EXPECT_EQ(tls->cert_chain_pem, m.server_cert_pem);
  EXPECT_FALSE(tls->mutual());
  auto mutual = LoadFlightSqlTls({m.server_cert_file, m.server_key_file, m.ca_file});
  ASSERT_TRUE(mutual.ok()) << mutual.status().message();
  EXPECT_TRUE(mutual->mutual());
  EXPECT_EQ(mutual->client_ca_pem, m.ca_pem);
}

TEST(FlightSqlTlsTest, MissingFilesNameTheFieldAndPath) {
  TlsMaterial m;
  auto no_cert = LoadFlightSqlTls({"/no/such/cert.pem", m.server_key_file, ""});
  ASSERT_FALSE(no_cert.ok());
  EXPECT_EQ(no_cert.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(no_cert.status().message(),
              AllOf(HasSubstr("coordinator.tls.cert_file"), HasSubstr("/no/such/cert.pem"),
                    HasSubstr("cannot be read")));
  auto no_key = LoadFlightSqlTls({m.server_cert_file, "/no/key.pem", ""});
  EXPECT_THAT(no_key.status().message(),
              AllOf(HasSubstr("coordinator.tls.key_file"), HasSubstr("/no/key.pem")));
  auto no_ca = LoadFlightSqlTls({m.server_cert_file, m.server_key_file, "/no/ca.pem"});
  EXPECT_THAT(no_ca.status().message(),
              AllOf(HasSubstr("coordinator.tls.ca_file"), HasSubstr("/no/ca.pem")));
}

TEST(FlightSqlTlsTest, NonPemFilesAreRefusedByField) {
  TlsMaterial m;
  std::string junk = m.Write("junk.pem", "not a certificate\n");
  auto bad_cert = LoadFlightSqlTls({junk, m.server_key_file, ""});
  EXPECT_THAT(bad_cert.status().message(),
              AllOf(HasSubstr("coordinator.tls.cert_file"), HasSubstr("no PEM certificate")));
  auto bad_key = LoadFlightSqlTls({m.server_cert_file, junk, ""});
  EXPECT_THAT(bad_key.status().message(),
              AllOf(HasSubstr("coordinator.tls.key_file"), HasSubstr("no usable PEM private key")));
  auto bad_ca = LoadFlightSqlTls({m.server_cert_file, m.server_key_file, junk});
  EXPECT_THAT(bad_ca.status().message(), HasSubstr("coordinator.tls.ca_file"));
  std::string empty = m.Write("empty.pem", "");
  auto empty_key = LoadFlightSqlTls({m.server_cert_file, empty, ""});
  EXPECT_THAT(empty_key.status().message(), HasSubstr("is empty"));
}

TEST(FlightSqlTlsTest, KeyOfAnotherCertificateIsRefusedWithoutShowingIt) {
  TlsMaterial m;
  auto tls = LoadFlightSqlTls({m.server_cert_file, m.client_key_file, ""});
  ASSERT_FALSE(tls.ok());
  EXPECT_THAT(tls.status().message(),
              AllOf(HasSubstr("coordinator.tls.key_file"), HasSubstr("is not the private key"),
                    HasSubstr(m.server_cert_file), Not(HasSubstr("PRIVATE KEY"))));
}

/// The listener over TLS (anonymous caller "dev"), reached by a gRPC client channel.
class FlightSqlTlsListenerTest : public ::testing::Test {
 protected:
  void Start(bool mutual) {
    auto tls = LoadFlightSqlTls(
        {material_.server_cert_file, material_.server_key_file, mutual ? material_.ca_file : ""});
    ASSERT_TRUE(tls.ok()) << tls.status().message();
    std::vector<std::unique_ptr<auth::Authenticator>> providers;
    providers.push_back(
        std::make_unique<auth::AnonymousAuthenticator>("dev", std::vector<std::string>{}));
    FlightSqlServiceOptions options;
    options.auth = std::make_shared<auth::AuthChain>(std::move(providers));
    listener_ = std::make_unique<FlightSqlListener>(std::move(options), std::move(*tls));
    SQE_ASSERT_OK(listener_->Bind("127.0.0.1", 0));
    SQE_ASSERT_OK(listener_->Serve());
    EXPECT_EQ(listener_->protocol(), mutual ? "grpc+mtls" : "grpc+tls");
  }
  void TearDown() override {
    if (listener_ != nullptr) listener_->Stop();
  }

  /// ListActions over a channel with `credentials`; the call's status.
  grpc::Status Call(const std::shared_ptr<grpc::ChannelCredentials>& credentials) {
    grpc::ChannelArguments args;
    auto channel = grpc::CreateCustomChannel("127.0.0.1:" + std::to_string(listener_->bound_port()),
                                             credentials, args);
    auto stub = fp::FlightService::NewStub(channel);
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
    auto reader = stub->ListActions(&context, fp::Empty());
    fp::ActionType action;
    int actions = 0;
    while (reader->Read(&action)) ++actions;
    grpc::Status status = reader->Finish();
    if (status.ok()) EXPECT_GT(actions, 0);
    return status;
  }

  std::shared_ptr<grpc::ChannelCredentials> Trusting(bool with_client_cert) {
    grpc::SslCredentialsOptions options;
    options.pem_root_certs = material_.ca_pem;
    if (with_client_cert) {
      options.pem_cert_chain = material_.client_cert_pem;
      options.pem_private_key = material_.client_key_pem;
    }
    return grpc::SslCredentials(options);
  }

  TlsMaterial material_;
  std::unique_ptr<FlightSqlListener> listener_;
};

TEST_F(FlightSqlTlsListenerTest, ServerTlsAcceptsClientsTrustingTheCa) {
  Start(false);
  grpc::Status ok = Call(Trusting(false));
  EXPECT_TRUE(ok.ok()) << ok.error_message();
  // A client that does not trust the CA, and a plaintext client, are not served.
  grpc::SslCredentialsOptions other;
  other.pem_root_certs = material_.other_ca_pem;
  EXPECT_EQ(Call(grpc::SslCredentials(other)).error_code(), grpc::StatusCode::UNAVAILABLE);
  EXPECT_EQ(Call(grpc::InsecureChannelCredentials()).error_code(), grpc::StatusCode::UNAVAILABLE);
}

TEST_F(FlightSqlTlsListenerTest, MutualTlsRequiresAClientCertificate) {
  Start(true);
  grpc::Status with_cert = Call(Trusting(true));
  EXPECT_TRUE(with_cert.ok()) << with_cert.error_message();
  EXPECT_EQ(Call(Trusting(false)).error_code(), grpc::StatusCode::UNAVAILABLE);
  EXPECT_EQ(Call(grpc::InsecureChannelCredentials()).error_code(), grpc::StatusCode::UNAVAILABLE);
}

}  // namespace
}  // namespace sqe::server::flight_sql

#include "server/flight_sql/flight_sql_tls.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string_view>
#include <vector>

#include <grpcpp/security/server_credentials.h>
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

namespace sqe::server::flight_sql {
namespace {

constexpr const char* kCertField = "coordinator.tls.cert_file";
constexpr const char* kKeyField = "coordinator.tls.key_file";
constexpr const char* kCaField = "coordinator.tls.ca_file";

struct BioFree {
  void operator()(BIO* b) const { BIO_free(b); }
};
struct X509Free {
  void operator()(X509* x) const { X509_free(x); }
};
struct KeyFree {
  void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
};
using BioPtr = std::unique_ptr<BIO, BioFree>;
using X509Ptr = std::unique_ptr<X509, X509Free>;
using KeyPtr = std::unique_ptr<EVP_PKEY, KeyFree>;

Status FieldError(const char* field, const std::string& path, const std::string& what) {
  return Status::InvalidArgument(std::string(field) + ": '" + path + "' " + what);
}

/// The whole file, or InvalidArgument naming the field, the path and the OS reason.
Result<std::string> ReadFile(const char* field, const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) {
    return FieldError(field, path, std::string("cannot be read: ") + std::strerror(errno));
  }
  std::string text;
  char buffer[8192];
  size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof(buffer), f)) > 0) text.append(buffer, n);
  bool failed = std::ferror(f) != 0;
  int err = errno;
  std::fclose(f);
  if (failed) return FieldError(field, path, std::string("cannot be read: ") + std::strerror(err));
  if (text.empty()) return FieldError(field, path, "is empty");
  return text;
}

BioPtr MemoryBio(std::string_view pem) {
  return BioPtr(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
}

/// The PEM certificates in `pem`, in order; none when it holds no parsable certificate.
std::vector<X509Ptr> ParseCertificates(std::string_view pem) {
  std::vector<X509Ptr> certs;
  BioPtr bio = MemoryBio(pem);
  while (bio != nullptr) {
    X509* cert = PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr);
    if (cert == nullptr) break;
    certs.emplace_back(cert);
  }
  ERR_clear_error();  // the end of the input leaves a "no start line" error behind
  return certs;
}

/// Refuses to prompt for a passphrase: encrypted keys fail to load instead.
int NoPassphrase(char*, int, int, void*) { return 0; }

}  // namespace

Result<FlightSqlTls> LoadFlightSqlTls(const FlightSqlTlsFiles& files) {
  if (files.cert_file.empty() || files.key_file.empty()) {
    return Status::InvalidArgument(std::string(kCertField) + " and " + kKeyField +
                                   " must both be set for TLS");
  }
  FlightSqlTls tls;
  SQE_ASSIGN_OR_RETURN(tls.cert_chain_pem, ReadFile(kCertField, files.cert_file));
  std::vector<X509Ptr> chain = ParseCertificates(tls.cert_chain_pem);
  if (chain.empty()) {
    return FieldError(kCertField, files.cert_file,
                      "holds no PEM certificate (expected '-----BEGIN CERTIFICATE-----')");
  }

  SQE_ASSIGN_OR_RETURN(std::string key_pem, ReadFile(kKeyField, files.key_file));
  tls.private_key_pem = SecretString(std::move(key_pem));
  BioPtr key_bio = MemoryBio(tls.private_key_pem.Expose());
  KeyPtr key(key_bio == nullptr
                 ? nullptr
                 : PEM_read_bio_PrivateKey(key_bio.get(), nullptr, NoPassphrase, nullptr));
  ERR_clear_error();
  if (key == nullptr) {
    return FieldError(kKeyField, files.key_file,
                      "holds no usable PEM private key (passphrase-protected keys are not "
                      "supported)");
  }
  bool matches = X509_check_private_key(chain.front().get(), key.get()) == 1;
  ERR_clear_error();
  if (!matches) {
    return FieldError(kKeyField, files.key_file,
                      std::string("is not the private key of the certificate in ") + kCertField +
                          " ('" + files.cert_file + "')");
  }

  if (!files.ca_file.empty()) {
    SQE_ASSIGN_OR_RETURN(tls.client_ca_pem, ReadFile(kCaField, files.ca_file));
    if (ParseCertificates(tls.client_ca_pem).empty()) {
      return FieldError(kCaField, files.ca_file,
                        "holds no PEM CA certificate (expected '-----BEGIN CERTIFICATE-----')");
    }
  }
  return tls;
}

std::shared_ptr<grpc::ServerCredentials> TlsServerCredentials(const FlightSqlTls& tls) {
  grpc::SslServerCredentialsOptions options(
      tls.mutual() ? GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY
                   : GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE);
  grpc::SslServerCredentialsOptions::PemKeyCertPair pair;
  pair.private_key = std::string(tls.private_key_pem.Expose());
  pair.cert_chain = tls.cert_chain_pem;
  options.pem_key_cert_pairs.push_back(std::move(pair));
  options.pem_root_certs = tls.client_ca_pem;
  return grpc::SslServerCredentials(options);
}

}  // namespace sqe::server::flight_sql

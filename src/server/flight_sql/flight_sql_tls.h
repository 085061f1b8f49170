#pragma once
/// FlightSqlTls: the PEM material of [coordinator.tls] for the Flight SQL listener, read and
/// checked once at startup (so a bad file stops the process with the field and path named,
/// not a silent gRPC failure at bind), and the gRPC server credentials made from it: server
/// TLS with the certificate chain and key, and with a CA bundle, mTLS (every client must
/// present a certificate that CA signed). The private key is held as a SecretString and no
/// error or log line ever carries its contents.

#include <memory>
#include <string>

#include <grpcpp/security/server_credentials.h>

#include "common/result.h"
#include "common/secret_string.h"

namespace sqe::server::flight_sql {

struct FlightSqlTls {
  std::string cert_chain_pem;    ///< the server certificate (and its intermediates)
  SecretString private_key_pem;  ///< the certificate's private key
  std::string client_ca_pem;     ///< non-empty: client certificates required (mTLS)

  bool mutual() const { return !client_ca_pem.empty(); }
};

/// The paths of [coordinator.tls]; `ca_file` may be empty (server TLS only).
struct FlightSqlTlsFiles {
  std::string cert_file;
  std::string key_file;
  std::string ca_file;
};

/// Reads the files and checks them: each readable and PEM, the certificate parses, the key
/// parses and belongs to the certificate, the CA bundle holds at least one certificate.
/// InvalidArgument names the config field (coordinator.tls.cert_file, ...) and the path.
Result<FlightSqlTls> LoadFlightSqlTls(const FlightSqlTlsFiles& files);

/// The credentials the listener binds with: TLS (and mTLS when tls.mutual()).
std::shared_ptr<grpc::ServerCredentials> TlsServerCredentials(const FlightSqlTls& tls);

}  // namespace sqe::server::flight_sql

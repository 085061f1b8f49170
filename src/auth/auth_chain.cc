#include "auth/auth_chain.h"

#include "auth/anonymous_authenticator.h"
#include "auth/api_key_authenticator.h"

namespace sqe::auth {

AuthChain::AuthChain(std::vector<std::unique_ptr<Authenticator>> providers,
                     std::vector<std::string> not_implemented)
    : providers_(std::move(providers)),
      not_implemented_(std::move(not_implemented)),
      issued_(std::make_shared<IssuedTokens>()) {}

bool AuthChain::allows_anonymous() const {
  for (const auto& p : providers_) {
    if (p->type() == "anonymous") return true;
  }
  return false;
}

Result<Identity> AuthChain::Authenticate(const Credentials& credentials) const {
  if (credentials.kind == Credentials::Kind::kBearer) {
    if (std::optional<Identity> who = issued_->Lookup(credentials.secret.Expose())) return *who;
  }
  Status rejected;  // the first provider that recognised and refused the credential
  for (const auto& provider : providers_) {
    Result<std::optional<Identity>> r = provider->Authenticate(credentials);
    if (!r.ok()) {
      if (rejected.ok()) rejected = r.status();
      continue;
    }
    if (r->has_value()) return std::move(**r);
  }
  if (!rejected.ok()) return rejected;
  std::string configured;
  for (const auto& p : providers_)
    configured += (configured.empty() ? "" : ", ") + std::string(p->type());
  std::string why;
  if (providers_.empty()) {
    why = "no authentication provider of this build is configured";
    if (!not_implemented_.empty()) {
      std::string list;
      for (const std::string& t : not_implemented_) list += (list.empty() ? "" : ", ") + t;
      why += " (configured but not implemented yet: " + list + ")";
    }
    why += "; configure an api_key or anonymous entry in [[auth.providers]]";
  } else if (credentials.kind == Credentials::Kind::kNone) {
    why =
        "authentication required: send 'Authorization: Bearer <API key or token>' "
        "(providers: " +
        configured + ")";
  } else {
    why = "the credential was not accepted by any provider (" + configured + ")";
  }
  return Status::Unauthenticated(why);
}

Result<Identity> AuthChain::AuthenticateHeader(std::string_view authorization) const {
  SQE_ASSIGN_OR_RETURN(Credentials credentials, ParseAuthorizationHeader(authorization));
  return Authenticate(credentials);
}

Result<std::shared_ptr<AuthChain>> MakeAuthChain(const config::AuthConfig& auth) {
  std::vector<std::unique_ptr<Authenticator>> providers;
  std::vector<std::string> not_implemented;
  for (size_t i = 0; i < auth.providers.size(); ++i) {
    const config::AuthProviderConfig& p = auth.providers[i];
    if (p.type == "anonymous") {
      providers.push_back(std::make_unique<AnonymousAuthenticator>(p.user, p.roles));
    } else if (p.type == "api_key") {
      auto made = ApiKeyAuthenticator::FromFile(p.keys_file, p.key_prefix);
      if (!made.ok()) {
        return made.status().WithContext("auth.providers[" + std::to_string(i) + "] (api_key)");
      }
      providers.push_back(std::move(*made));
    } else {
      not_implemented.push_back(p.type);
    }
  }
  if (auth.providers.empty() && (!auth.keycloak_url.empty() || !auth.token_endpoint.empty())) {
    not_implemented.push_back(auth.keycloak_url.empty() ? "client_credentials (legacy [auth])"
                                                        : "oidc_password (legacy [auth])");
  }
  return std::make_shared<AuthChain>(std::move(providers), std::move(not_implemented));
}

}  // namespace sqe::auth

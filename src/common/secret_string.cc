#include "common/secret_string.h"

#include <openssl/crypto.h>

#include <ostream>

namespace sqe {

void SecureZero(void* data, size_t size) {
  if (data != nullptr && size > 0) OPENSSL_cleanse(data, size);
}

SecretString::SecretString(std::string value) : value_(std::move(value)) {
  // The caller's buffer was moved from; small strings may leave a copy in it, which the
  // caller owns. Our own copy is wiped on destruction.
}

SecretString::SecretString(const SecretString& other) : value_(other.value_) {}

SecretString::SecretString(SecretString&& other) noexcept : value_(other.value_) {
  other.Wipe();
}

SecretString& SecretString::operator=(const SecretString& other) {
  if (this != &other) {
    Wipe();
    value_ = other.value_;
  }
  return *this;
}

SecretString& SecretString::operator=(SecretString&& other) noexcept {
  if (this != &other) {
    Wipe();
    value_ = other.value_;
    other.Wipe();
  }
  return *this;
}

SecretString::~SecretString() { Wipe(); }

void SecretString::Wipe() {
  // Wipe the whole capacity, not only size(): a shrunk string keeps old bytes.
  value_.resize(value_.capacity());
  SecureZero(value_.data(), value_.size());
  value_.clear();
}

bool SecretString::operator==(const SecretString& other) const {
  if (value_.size() != other.value_.size()) return false;
  return CRYPTO_memcmp(value_.data(), other.value_.data(), value_.size()) == 0;
}

std::ostream& operator<<(std::ostream& os, const SecretString& secret) {
  return os << secret.ToString();
}

}  // namespace sqe

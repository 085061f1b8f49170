#pragma once
/// SecretString: holds a credential (client secret, S3 key, API key). It never prints its
/// value (streams, fmt and ToString() all give "***"), and it wipes its bytes on destruction
/// and reassignment. Read the value only with Expose(), at the point of use.

#include <iosfwd>
#include <string>
#include <string_view>

namespace sqe {

class SecretString {
 public:
  SecretString() = default;
  explicit SecretString(std::string value);
  SecretString(const SecretString& other);
  SecretString(SecretString&& other) noexcept;
  SecretString& operator=(const SecretString& other);
  SecretString& operator=(SecretString&& other) noexcept;
  ~SecretString();

  /// The secret itself. Never log or format the returned view.
  std::string_view Expose() const { return value_; }
  bool empty() const { return value_.empty(); }
  /// Always "***" (or "" for an empty secret), so accidental formatting leaks nothing.
  std::string ToString() const { return value_.empty() ? "" : "***"; }

  bool operator==(const SecretString& other) const;

 private:
  void Wipe();
  std::string value_;
};

std::ostream& operator<<(std::ostream& os, const SecretString& secret);

/// Overwrites `size` bytes at `data` in a way the optimizer cannot elide.
void SecureZero(void* data, size_t size);

}  // namespace sqe

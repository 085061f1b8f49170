#include "server/listener/tcp_socket.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace sqe::server {

std::string DescribeBindError(int err) {
  switch (err) {
    case EADDRINUSE:
      return "address already in use (another process is listening on it)";
    case EACCES:
      return "permission denied (ports below 1024 need privileges)";
    case EADDRNOTAVAIL:
      return "address not available on this machine";
    default:
      return std::strerror(err);
  }
}

int LocalPort(int fd) {
  sockaddr_in addr{};
  socklen_t len = sizeof(addr);
  if (fd < 0 || ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) return 0;
  return ntohs(addr.sin_port);
}

Result<int> OpenListeningSocket(const std::string& host, int port, int backlog) {
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  const std::string address = host.empty() ? "0.0.0.0" : host;
  if (inet_pton(AF_INET, address.c_str(), &addr.sin_addr) != 1) {
    return Status::InvalidArgument("'" + address + "' is not an IPv4 address");
  }
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return Status::IOError(std::string("socket(): ") + std::strerror(errno));
  int yes = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 ||
      ::listen(fd, backlog) != 0) {
    int err = errno;
    ::close(fd);
    return Status::IOError(DescribeBindError(err));
  }
  return fd;
}

}  // namespace sqe::server

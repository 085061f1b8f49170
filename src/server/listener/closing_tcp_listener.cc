#include "server/listener/closing_tcp_listener.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "server/listener/tcp_socket.h"

namespace sqe::server {

ClosingTcpListener::~ClosingTcpListener() { Stop(); }

Status ClosingTcpListener::Bind(const std::string& host, int port) {
  if (listen_fd_ >= 0) return Status::Internal("listener already bound");
  SQE_ASSIGN_OR_RETURN(listen_fd_, OpenListeningSocket(host, port));
  port_ = LocalPort(listen_fd_);
  return Status::OK();
}

Status ClosingTcpListener::Serve() {
  if (listen_fd_ < 0) return Status::Internal("Serve() before Bind()");
  if (thread_.joinable()) return Status::Internal("listener already serving");
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0) {
    return Status::IOError(std::string("pipe(): ") + std::strerror(errno));
  }
  wake_read_fd_ = fds[0];
  wake_write_fd_ = fds[1];
  thread_ = std::thread([this] { AcceptLoop(); });
  return Status::OK();
}

void ClosingTcpListener::AcceptLoop() {
  pollfd fds[2] = {{listen_fd_, POLLIN, 0}, {wake_read_fd_, POLLIN, 0}};
  while (true) {
    int n = ::poll(fds, 2, -1);
    if (n < 0) {
      if (errno == EINTR) continue;
      return;
    }
    if (fds[1].revents != 0) return;  // Stop() wrote to the wake pipe
    if (fds[0].revents & POLLIN) {
      int conn = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
      if (conn >= 0) ::close(conn);
    }
  }
}

void ClosingTcpListener::Stop() {
  if (thread_.joinable()) {
    char byte = 1;
    [[maybe_unused]] ssize_t w = ::write(wake_write_fd_, &byte, 1);
    thread_.join();
  }
  for (int* fd : {&listen_fd_, &wake_read_fd_, &wake_write_fd_}) {
    if (*fd >= 0) ::close(*fd);
    *fd = -1;
  }
  port_ = 0;
}

}  // namespace sqe::server

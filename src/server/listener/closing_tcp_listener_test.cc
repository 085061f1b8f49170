#include "server/listener/closing_tcp_listener.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "server/listener/tcp_socket.h"

namespace sqe::server {
namespace {

/// Connects to 127.0.0.1:port; returns the socket or -1.
int Connect(int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

TEST(ClosingTcpListenerTest, AcceptsAndClosesConnections) {
  ClosingTcpListener listener;
  ASSERT_TRUE(listener.Bind("127.0.0.1", 0).ok());
  int port = listener.bound_port();
  ASSERT_GT(port, 0);
  ASSERT_TRUE(listener.Serve().ok());
  int fd = Connect(port);
  ASSERT_GE(fd, 0);
  char buf[8];
  EXPECT_EQ(::read(fd, buf, sizeof(buf)), 0);  // the server closed it
  ::close(fd);
  listener.Stop();
  EXPECT_EQ(listener.bound_port(), 0);
  EXPECT_LT(Connect(port), 0);
}

TEST(ClosingTcpListenerTest, SecondBindOnTheSamePortFails) {
  ClosingTcpListener first;
  ASSERT_TRUE(first.Bind("127.0.0.1", 0).ok());
  ClosingTcpListener second;
  Status st = second.Bind("127.0.0.1", first.bound_port());
  EXPECT_EQ(st.code(), StatusCode::kIOError);
  EXPECT_NE(st.message().find("address already in use"), std::string::npos) << st.message();
}

TEST(ClosingTcpListenerTest, StopWithoutServeReleasesThePort) {
  int port = 0;
  {
    ClosingTcpListener listener;
    ASSERT_TRUE(listener.Bind("127.0.0.1", 0).ok());
    port = listener.bound_port();
    listener.Stop();
  }
  ClosingTcpListener again;
  EXPECT_TRUE(again.Bind("127.0.0.1", port).ok());
}

TEST(TcpSocketTest, RejectsANonIpv4Host) {
  auto fd = OpenListeningSocket("not-an-ip", 0);
  EXPECT_EQ(fd.status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace sqe::server

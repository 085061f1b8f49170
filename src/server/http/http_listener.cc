#include "server/http/http_listener.h"

#include <httplib.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <thread>

#include "server/listener/tcp_socket.h"

namespace sqe::server {

struct HttpListener::Impl {
  Options options;
  HttpRouter router;
  httplib::Server server;
  std::thread thread;
  int bound_fd = -1;  // the listening socket, captured when httplib creates it
  int port = 0;
  bool bound = false;
  bool serving = false;
};

namespace {

HttpMethod MethodOf(const std::string& name) {
  if (name == "POST") return HttpMethod::kPost;
  if (name == "PUT") return HttpMethod::kPut;
  if (name == "DELETE") return HttpMethod::kDelete;
  if (name == "PATCH") return HttpMethod::kPatch;
  return HttpMethod::kGet;  // GET, and HEAD which httplib answers from the GET route
}

HttpRequest ToRequest(const httplib::Request& req) {
  HttpRequest out;
  out.method = MethodOf(req.method);
  out.path = req.path;
  for (const auto& [k, v] : req.params) out.query.emplace(k, v);
  for (const auto& [k, v] : req.headers) {
    std::string key = k;
    std::transform(key.begin(), key.end(), key.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    out.headers[key] = v;
  }
  out.body = req.body;
  out.remote_addr = req.remote_addr;
  return out;
}

}  // namespace

HttpListener::HttpListener() : HttpListener(Options{}) {}

HttpListener::HttpListener(Options options) : impl_(std::make_unique<Impl>()) {
  impl_->options = options;
}

HttpListener::~HttpListener() { Stop(); }

void HttpListener::Route(HttpMethod method, std::string path, HttpHandler handler) {
  impl_->router.Add(method, std::move(path), std::move(handler));
}

Status HttpListener::Bind(const std::string& host, int port) {
  if (impl_->bound) return Status::Internal("listener already bound");
  Impl* impl = impl_.get();
  // Our own socket options instead of httplib's default SO_REUSEPORT, which would let a
  // second process share the port silently; capturing the fd lets Stop() close a socket
  // that was bound but never served.
  impl->server.set_socket_options([impl](socket_t sock) {
    int yes = 1;
    ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
    impl->bound_fd = sock;
  });
  errno = 0;
  if (!impl->server.bind_to_port(host.empty() ? "0.0.0.0" : host, port)) {
    int err = errno != 0 ? errno : EADDRINUSE;
    impl->bound_fd = -1;
    return Status::IOError(DescribeBindError(err));
  }
  impl->bound = true;
  impl->port = LocalPort(impl->bound_fd);
  return Status::OK();
}

Status HttpListener::Serve() {
  Impl* impl = impl_.get();
  if (!impl->bound) return Status::Internal("Serve() before Bind()");
  if (impl->serving) return Status::Internal("listener already serving");

  const Options& o = impl->options;
  impl->server.set_read_timeout(o.read_timeout_secs, 0);
  impl->server.set_write_timeout(o.write_timeout_secs, 0);
  impl->server.set_keep_alive_timeout(o.keep_alive_timeout_secs);
  impl->server.set_keep_alive_max_count(
      static_cast<size_t>(std::max(1, o.keep_alive_max_requests)));
  size_t threads = static_cast<size_t>(std::max(1, o.worker_threads));
  impl->server.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };

  // One catch-all per method hands every request to our router, which owns 404/405.
  auto dispatch = [impl](const httplib::Request& req, httplib::Response& res) {
    HttpResponse out = impl->router.Dispatch(ToRequest(req));
    res.status = out.status;
    for (const auto& [k, v] : out.headers) res.set_header(k, v);
    res.set_content(out.body, out.content_type);
  };
  impl->server.Get(".*", dispatch);
  impl->server.Post(".*", dispatch);
  impl->server.Put(".*", dispatch);
  impl->server.Delete(".*", dispatch);
  impl->server.Patch(".*", dispatch);

  impl->thread = std::thread([impl] { impl->server.listen_after_bind(); });
  impl->serving = true;
  // httplib's stop() only acts once the accept loop runs; wait for it so that a Stop()
  // right after Serve() cannot be lost.
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (!impl->server.is_running()) {
    if (std::chrono::steady_clock::now() > deadline) {
      return Status::Internal("HTTP accept loop did not start within 5 s");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return Status::OK();
}

int HttpListener::bound_port() const { return impl_->bound ? impl_->port : 0; }

void HttpListener::Stop() {
  Impl* impl = impl_.get();
  if (impl->serving) {
    impl->server.stop();
    if (impl->thread.joinable()) impl->thread.join();
    impl->serving = false;
    impl->bound = false;
    impl->bound_fd = -1;  // httplib closed it
    return;
  }
  if (impl->bound && impl->bound_fd >= 0) {
    ::close(impl->bound_fd);
  }
  impl->bound = false;
  impl->bound_fd = -1;
}

}  // namespace sqe::server

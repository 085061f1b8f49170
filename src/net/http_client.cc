#include "net/http_client.h"

#include <curl/curl.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstring>
#include <mutex>

namespace sqe::net {
namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() &&
         (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n')) {
    s.remove_suffix(1);
  }
  return s;
}

// Messages name the URL, but a query string may carry presigned credentials: drop it.
std::string_view UrlForMessages(std::string_view url) {
  size_t cut = url.find_first_of("?#");
  return cut == std::string_view::npos ? url : url.substr(0, cut);
}

// curl_global_init is not thread safe and must run once per process.
CURLcode GlobalInit() {
  static std::once_flag once;
  static CURLcode result = CURLE_OK;
  std::call_once(once, [] { result = curl_global_init(CURL_GLOBAL_DEFAULT); });
  return result;
}

// Per-transfer state that the curl callbacks fill in.
struct Transfer {
  const HttpRequest* request = nullptr;
  HttpResponse* response = nullptr;
  // Upload cursor (PUT bodies go through the read callback).
  size_t upload_offset = 0;
  // The status of the latest status line, so the write callback knows whether the body
  // is the success payload (caller's buffer) or an error document.
  int status = 0;
  bool overflow = false;
  // Stall detection: the time bytes last moved (either way), once connected.
  int64_t stall_timeout_ms = 0;
  bool connected = false;
  bool stalled = false;
  std::chrono::steady_clock::time_point last_activity;
  curl_off_t last_dlnow = 0;
  curl_off_t last_ulnow = 0;

  void Touch() { last_activity = std::chrono::steady_clock::now(); }
};

// Called once the connection is established (or reused), just before the request goes
// out: the stall clock starts here, so a slow connect is the connect timeout's business.
int PrereqCallback(void* userdata, char*, char*, int, int) {
  auto* t = static_cast<Transfer*>(userdata);
  t->connected = true;
  t->Touch();
  return CURL_PREREQFUNC_OK;
}

// The stall check. curl's own low-speed limit averages over a ~5 s window and whole
// seconds, so a server that stops mid-body would be caught late; here any byte resets
// the clock. curl calls this at least about once a second while a transfer idles.
int XferInfoCallback(void* userdata, curl_off_t, curl_off_t dlnow, curl_off_t, curl_off_t ulnow) {
  auto* t = static_cast<Transfer*>(userdata);
  if (!t->connected || t->stall_timeout_ms <= 0) return 0;
  if (dlnow != t->last_dlnow || ulnow != t->last_ulnow) {
    t->last_dlnow = dlnow;
    t->last_ulnow = ulnow;
    t->Touch();
    return 0;
  }
  auto idle = std::chrono::steady_clock::now() - t->last_activity;
  if (idle >= std::chrono::milliseconds(t->stall_timeout_ms)) {
    t->stalled = true;
    return 1;  // aborts with CURLE_ABORTED_BY_CALLBACK
  }
  return 0;
}

size_t HeaderCallback(char* data, size_t size, size_t nitems, void* userdata) {
  auto* t = static_cast<Transfer*>(userdata);
  size_t n = size * nitems;
  t->Touch();
  std::string_view line(data, n);
  if (line.size() >= 5 && line.substr(0, 5) == "HTTP/") {
    // A new status line (also after "100 Continue"): earlier headers were interim.
    t->response->headers.clear();
    t->status = 0;
    size_t sp = line.find(' ');
    if (sp != std::string_view::npos) {
      int code = 0;
      for (size_t i = sp + 1; i < line.size() && std::isdigit(static_cast<unsigned char>(line[i]));
           ++i) {
        code = code * 10 + (line[i] - '0');
      }
      t->status = code;
    }
    return n;
  }
  size_t colon = line.find(':');
  if (colon == std::string_view::npos) return n;  // the blank line ending the headers
  std::string_view name = Trim(line.substr(0, colon));
  if (name.empty()) return n;
  t->response->headers.emplace_back(Lower(name), std::string(Trim(line.substr(colon + 1))));
  return n;
}

size_t WriteCallback(char* data, size_t size, size_t nmemb, void* userdata) {
  auto* t = static_cast<Transfer*>(userdata);
  size_t n = size * nmemb;
  const HttpRequest& req = *t->request;
  HttpResponse& resp = *t->response;
  bool success = t->status >= 200 && t->status < 300;
  if (success && req.response_buffer != nullptr) {
    if (resp.body_bytes + static_cast<int64_t>(n) > req.response_capacity) {
      t->overflow = true;
      return 0;  // aborts the transfer with CURLE_WRITE_ERROR
    }
    std::memcpy(req.response_buffer + resp.body_bytes, data, n);
  } else {
    resp.body.append(data, n);
  }
  resp.body_bytes += static_cast<int64_t>(n);
  return n;
}

size_t ReadCallback(char* buffer, size_t size, size_t nitems, void* userdata) {
  auto* t = static_cast<Transfer*>(userdata);
  std::string_view body = t->request->body;
  size_t n = std::min(size * nitems, body.size() - t->upload_offset);
  if (n > 0) std::memcpy(buffer, body.data() + t->upload_offset, n);
  t->upload_offset += n;
  return n;
}

// curl rewinds the upload when it resends a request on a fresh connection (a reused
// connection found dead); without this callback that would fail the request.
int SeekCallback(void* userdata, curl_off_t offset, int origin) {
  auto* t = static_cast<Transfer*>(userdata);
  if (origin != SEEK_SET || offset < 0 || static_cast<size_t>(offset) > t->request->body.size()) {
    return CURL_SEEKFUNC_CANTSEEK;
  }
  t->upload_offset = static_cast<size_t>(offset);
  return CURL_SEEKFUNC_OK;
}

bool IsTlsError(CURLcode code) {
  switch (code) {
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_SSL_ENGINE_NOTFOUND:
    case CURLE_SSL_ENGINE_SETFAILED:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_ENGINE_INITFAILED:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_SHUTDOWN_FAILED:
    case CURLE_SSL_CRL_BADFILE:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
    case CURLE_SSL_INVALIDCERTSTATUS:
    case CURLE_SSL_CLIENTCERT:
    case CURLE_USE_SSL_FAILED:
      return true;
    default:
      return false;
  }
}

// Frees a curl_slist on scope exit.
struct SlistDeleter {
  void operator()(curl_slist* list) const { curl_slist_free_all(list); }
};
using Slist = std::unique_ptr<curl_slist, SlistDeleter>;

}  // namespace

std::optional<std::string> HttpResponse::Header(std::string_view name) const {
  for (const auto& [k, v] : headers) {
    if (EqualsIgnoreCase(k, name)) return v;
  }
  return std::nullopt;
}

// Connection reuse. The curl share holds the DNS cache and TLS sessions only: libcurl
// does not support sharing its connection cache between concurrently running threads
// (CURLSHOPT_SHARE, KNOWN_BUGS "A shared connection cache is not thread-safe", curl#4915).
// Instead each pooled easy handle keeps its own live connection, which survives
// curl_easy_reset; the pool hands out the most recently used handle first, so
// sequential requests ride one connection and N concurrent callers keep N of them.
// The pool retains at most max_idle_connections handles with one idle connection each.
struct HttpClient::Impl {
  HttpClientOptions options;
  CURLSH* share = nullptr;
  // One mutex per curl_lock_data, so DNS and TLS-session accesses from different
  // transfers do not serialize on one lock.
  std::array<std::mutex, CURL_LOCK_DATA_LAST> share_locks;
  std::mutex pool_mu;
  std::vector<CURL*> idle;  // guarded by pool_mu
  std::atomic<int64_t> connections_opened{0};

  static void Lock(CURL*, curl_lock_data data, curl_lock_access, void* userptr) {
    static_cast<Impl*>(userptr)->share_locks[static_cast<size_t>(data)].lock();
  }
  static void Unlock(CURL*, curl_lock_data data, void* userptr) {
    static_cast<Impl*>(userptr)->share_locks[static_cast<size_t>(data)].unlock();
  }

  CURL* Acquire() {
    {
      std::lock_guard<std::mutex> lock(pool_mu);
      if (!idle.empty()) {
        CURL* h = idle.back();
        idle.pop_back();
        return h;
      }
    }
    return curl_easy_init();
  }

  void Release(CURL* h) {
    // Reset drops every option (including the share), so Send sets them all each time;
    // the handle keeps its caches, which is the point of pooling it.
    curl_easy_reset(h);
    {
      std::lock_guard<std::mutex> lock(pool_mu);
      if (static_cast<int64_t>(idle.size()) < options.max_idle_connections) {
        idle.push_back(h);
        return;
      }
    }
    curl_easy_cleanup(h);  // closes its connection
  }

  ~Impl() {
    // Easy handles must leave the share before it can be cleaned up.
    for (CURL* h : idle) curl_easy_cleanup(h);
    idle.clear();
    if (share != nullptr) curl_share_cleanup(share);
  }
};

Result<std::shared_ptr<HttpClient>> HttpClient::Make(const HttpClientOptions& options) {
  if (options.connect_timeout_ms < 0 || options.request_timeout_ms < 0 ||
      options.stall_timeout_ms < 0 || options.max_idle_connections < 0) {
    return Status::InvalidArgument("HTTP client timeouts and connection counts must be >= 0");
  }
  CURLcode init = GlobalInit();
  if (init != CURLE_OK) {
    return Status::Internal(std::string("libcurl initialization failed: ") +
                            curl_easy_strerror(init));
  }
  auto impl = std::make_unique<Impl>();
  impl->options = options;
  impl->share = curl_share_init();
  if (impl->share == nullptr) return Status::Internal("curl_share_init failed");
  bool ok =
      curl_share_setopt(impl->share, CURLSHOPT_LOCKFUNC, &Impl::Lock) == CURLSHE_OK &&
      curl_share_setopt(impl->share, CURLSHOPT_UNLOCKFUNC, &Impl::Unlock) == CURLSHE_OK &&
      curl_share_setopt(impl->share, CURLSHOPT_USERDATA, impl.get()) == CURLSHE_OK &&
      curl_share_setopt(impl->share, CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS) == CURLSHE_OK &&
      curl_share_setopt(impl->share, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION) == CURLSHE_OK;
  if (!ok) return Status::Internal("configuring the curl share failed");
  return std::shared_ptr<HttpClient>(new HttpClient(std::move(impl)));
}

HttpClient::HttpClient(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
HttpClient::~HttpClient() = default;

const HttpClientOptions& HttpClient::options() const { return impl_->options; }

int64_t HttpClient::connections_opened() const { return impl_->connections_opened.load(); }

HttpOutcome HttpClient::Send(const HttpRequest& request) {
  HttpOutcome outcome;
  const HttpClientOptions& opt = impl_->options;
  std::string where = request.method + " " + std::string(UrlForMessages(request.url));
  auto fail = [&](TransportFailure f, std::string msg) {
    outcome.failure = f;
    outcome.error = where + ": " + msg;
    outcome.response = HttpResponse();
    return outcome;
  };

  for (const auto& [name, value] : request.headers) {
    // A line break would smuggle extra headers into the request. Name only: values may
    // be secrets.
    if (name.find_first_of("\r\n") != std::string::npos ||
        value.find_first_of("\r\n") != std::string::npos) {
      return fail(TransportFailure::kOther, "header '" + name + "' contains a line break");
    }
  }

  CURL* h = impl_->Acquire();
  if (h == nullptr) return fail(TransportFailure::kOther, "curl_easy_init failed");

  Transfer t;
  t.request = &request;
  t.response = &outcome.response;
  char errbuf[CURL_ERROR_SIZE];
  errbuf[0] = '\0';

  // Headers. "Expect:" stops curl from waiting for 100-continue before a body; an
  // empty "Content-Type:" stops it from labelling POST bodies as form data.
  Slist headers;
  auto add_header = [&](const std::string& line) {
    curl_slist* next = curl_slist_append(headers.get(), line.c_str());
    if (next != nullptr) {
      headers.release();
      headers.reset(next);
    }
  };
  bool has_content_type = false;
  bool has_expect = false;
  for (const auto& [name, value] : request.headers) {
    if (EqualsIgnoreCase(name, "content-type")) has_content_type = true;
    if (EqualsIgnoreCase(name, "expect")) has_expect = true;
    // "Name:" would remove a header in curl; "Name;" sends it with an empty value.
    add_header(value.empty() ? name + ";" : name + ": " + value);
  }
  if (!has_expect) add_header("Expect:");

  const std::string& method = request.method;
  bool upload = method == "PUT";
  bool postfields = !upload && (method == "POST" || !request.body.empty());
  if (postfields && !has_content_type) add_header("Content-Type:");

  curl_easy_setopt(h, CURLOPT_SHARE, impl_->share);
  curl_easy_setopt(h, CURLOPT_URL, request.url.c_str());
  curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(h, CURLOPT_HTTP_VERSION, static_cast<long>(CURL_HTTP_VERSION_1_1));
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf);
  curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(h, CURLOPT_PROXY, "");  // never pick up http_proxy from the environment
  curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(opt.connect_timeout_ms));
  if (opt.request_timeout_ms > 0) {
    curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, static_cast<long>(opt.request_timeout_ms));
  }
  t.stall_timeout_ms = opt.stall_timeout_ms;
  curl_easy_setopt(h, CURLOPT_PREREQFUNCTION, &PrereqCallback);
  curl_easy_setopt(h, CURLOPT_PREREQDATA, &t);
  curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
  curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, &XferInfoCallback);
  curl_easy_setopt(h, CURLOPT_XFERINFODATA, &t);
  curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, opt.verify_tls ? 1L : 0L);
  curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, opt.verify_tls ? 2L : 0L);
  if (!opt.ca_bundle.empty()) curl_easy_setopt(h, CURLOPT_CAINFO, opt.ca_bundle.c_str());
  curl_easy_setopt(h, CURLOPT_TCP_KEEPALIVE, 1L);
  // One live connection per handle; the pool size bounds the idle total (see Impl).
  curl_easy_setopt(h, CURLOPT_MAXCONNECTS, 1L);

  if (method == "GET") {
    curl_easy_setopt(h, CURLOPT_HTTPGET, 1L);
  } else if (method == "HEAD") {
    curl_easy_setopt(h, CURLOPT_NOBODY, 1L);
  } else if (upload) {
    curl_easy_setopt(h, CURLOPT_UPLOAD, 1L);
    curl_easy_setopt(h, CURLOPT_READFUNCTION, &ReadCallback);
    curl_easy_setopt(h, CURLOPT_READDATA, &t);
    curl_easy_setopt(h, CURLOPT_SEEKFUNCTION, &SeekCallback);
    curl_easy_setopt(h, CURLOPT_SEEKDATA, &t);
    // A known size makes curl send Content-Length (also 0) instead of chunked encoding.
    curl_easy_setopt(h, CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
  } else {
    if (postfields) {
      // POSTFIELDS with a null pointer would read from the read callback: pass "" instead.
      const char* data = request.body.empty() ? "" : request.body.data();
      curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE,
                       static_cast<curl_off_t>(request.body.size()));
      curl_easy_setopt(h, CURLOPT_POSTFIELDS, data);
    }
    if (method != "POST") curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, method.c_str());
  }
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers.get());
  curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, &HeaderCallback);
  curl_easy_setopt(h, CURLOPT_HEADERDATA, &t);
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, &WriteCallback);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, &t);

  t.Touch();
  CURLcode rc = curl_easy_perform(h);

  long connects = 0;
  if (curl_easy_getinfo(h, CURLINFO_NUM_CONNECTS, &connects) == CURLE_OK && connects > 0) {
    impl_->connections_opened.fetch_add(connects);
  }
  long status = 0;
  curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
  // The handle goes back only after the last getinfo; the error buffer is ours.
  impl_->Release(h);

  if (rc == CURLE_OK) {
    outcome.response.status = static_cast<int>(status);
    return outcome;
  }

  std::string detail = curl_easy_strerror(rc);
  if (errbuf[0] != '\0') detail += std::string(" (") + errbuf + ")";
  switch (rc) {
    case CURLE_WRITE_ERROR:
      if (t.overflow) {
        return fail(TransportFailure::kOther, "response body longer than the " +
                                                  std::to_string(request.response_capacity) +
                                                  " bytes expected");
      }
      return fail(TransportFailure::kOther, detail);
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
    case CURLE_COULDNT_CONNECT:
      return fail(TransportFailure::kConnect, detail);
    case CURLE_ABORTED_BY_CALLBACK:
      if (t.stalled) {
        return fail(TransportFailure::kStalled,
                    "no data for " + std::to_string(opt.stall_timeout_ms) + " ms");
      }
      return fail(TransportFailure::kOther, detail);
    case CURLE_OPERATION_TIMEDOUT:  // connect timeout or request_timeout_ms
      return fail(TransportFailure::kTimeout, detail);
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_PARTIAL_FILE:
      return fail(TransportFailure::kReset, detail);
    default:
      if (IsTlsError(rc)) return fail(TransportFailure::kTls, detail);
      return fail(TransportFailure::kOther, detail);
  }
}

}  // namespace sqe::net

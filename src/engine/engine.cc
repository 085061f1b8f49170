#include "engine/engine.h"

#include <algorithm>
#include <thread>

#include "catalog/catalog_factory.h"
#include "config/config_loader.h"
#include "engine/engine_internal.h"
#include "exec/spill_file.h"
#include "io/s3/s3_options.h"

namespace sqe::engine {

int64_t QueryResult::num_rows() const {
  int64_t rows = 0;
  for (const columnar::Batch& b : batches) rows += b.num_rows();
  return rows;
}

Result<std::shared_ptr<catalog::Catalog>> Engine::Impl::Catalog(const std::string& name) const {
  auto it = catalogs.find(name);
  if (it != catalogs.end()) return it->second;
  std::string names;
  for (const auto& [n, c] : catalogs) names += (names.empty() ? "" : ", ") + n;
  return Status::NotFound("Catalog '" + name + "' not found (catalogs: " + names + ")");
}

Engine::Engine(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Engine::~Engine() = default;

Result<std::shared_ptr<Engine>> Engine::Open(EngineOptions options) {
  auto impl = std::make_unique<Impl>();
  impl->config = std::move(options.config);
  const config::Config& config = impl->config;
  impl->file_systems = std::make_shared<io::s3::StorageFileSystems>(
      io::s3::S3OptionsFromConfig(config, config::CurrentEnvironment()));
  std::unique_ptr<catalog::Catalog> made;
  if (!options.warehouse.empty()) {
    SQE_ASSIGN_OR_RETURN(made, catalog::MakeEmbeddedCatalog(
                                   options.warehouse, config.catalog.name,
                                   static_cast<int>(config.catalog.default_table_format_version),
                                   impl->file_systems));
  } else {
    SQE_ASSIGN_OR_RETURN(made, catalog::MakeCatalog(config, impl->file_systems));
  }
  impl->default_catalog = config.catalog.name;
  impl->catalogs.emplace(config.catalog.name, std::shared_ptr<catalog::Catalog>(std::move(made)));
  int threads = options.threads;
  if (threads <= 0) threads = static_cast<int>(std::thread::hardware_concurrency());
  if (threads <= 0) threads = 1;
  impl->threads = threads;
  // The calling thread works too (ParallelFor), so threads - 1 helpers suffice.
  impl->scheduler = std::make_unique<TaskScheduler>(std::max(1, threads - 1));
  impl->process_tracker = MemoryTracker::Create(
      MemoryTracker::Options{MemoryScope::kProcess, "process",
                             static_cast<int64_t>(config.worker.memory_limit),
                             "worker.memory_limit"});
  // Spill directories of processes that died mid-query (their queries cannot clean up).
  if (config.worker.spill_to_disk) exec::SpillDirectory::RemoveStale(config.worker.spill_dir);
  impl->footer_cache =
      std::make_shared<parquet::FooterCache>(static_cast<int64_t>(config.storage.footer_cache_size));
  return std::shared_ptr<Engine>(new Engine(std::move(impl)));
}

std::unique_ptr<Session> Engine::NewSession(std::string user) {
  auto impl = std::make_unique<Session::Impl>();
  impl->engine_owner = shared_from_this();
  impl->engine = impl_.get();
  impl->user = std::move(user);
  impl->catalog = impl_->default_catalog;
  impl->schema = "";
  return std::unique_ptr<Session>(new Session(std::move(impl)));
}

}  // namespace sqe::engine

#pragma once
/// CatalogTableOperations: one table of a Catalog seen as iceberg::TableOperations, so
/// the writers of src/iceberg (fast append, ...) commit through any catalog backend.

#include <memory>

#include "catalog/catalog.h"
#include "iceberg/write/table_operations.h"
#include "io/file_system.h"

namespace sqe::catalog {

class CatalogTableOperations final : public iceberg::TableOperations {
 public:
  CatalogTableOperations(Catalog& catalog, TableIdentifier id, std::unique_ptr<io::FileSystem> fs)
      : catalog_(catalog), id_(std::move(id)), fs_(std::move(fs)) {}

  Result<iceberg::TableMetadata> Refresh() override {
    SQE_ASSIGN_OR_RETURN(LoadedTable t, catalog_.LoadTable(id_));
    return *t.metadata;
  }
  Result<iceberg::TableMetadata> Commit(const std::vector<iceberg::TableRequirement>& requirements,
                                        const std::vector<iceberg::TableUpdate>& updates) override {
    SQE_ASSIGN_OR_RETURN(LoadedTable t, catalog_.CommitTable(id_, requirements, updates));
    return *t.metadata;
  }
  io::FileSystem& file_system() override { return *fs_; }

 private:
  Catalog& catalog_;
  TableIdentifier id_;
  std::unique_ptr<io::FileSystem> fs_;
};

}  // namespace sqe::catalog

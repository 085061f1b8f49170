// Session::Start and its cursors: a query streams through a bounded ResultQueue from a
// producer thread; every other statement runs at once and its QueryResult is handed out.

#include "engine/result_cursor.h"

#include <thread>

#include "engine/engine_internal.h"
#include "engine/query_slot.h"
#include "engine/result_queue.h"
#include "exec/pipeline.h"
#include "planner/optimizer.h"
#include "planner/physical_planner.h"
#include "sql/parser.h"

namespace sqe::engine {

namespace ast = sql::ast;

namespace {

/// Batches in flight between the pipeline threads and the consumer: enough to keep both
/// sides busy, few enough that a slow client holds a few MB, not the result.
constexpr size_t kQueueCapacity = 4;

/// The last operator under the ResultCollector of a streamed query: hands each batch,
/// renamed to the result schema, to the queue and passes nothing on.
class StreamTap : public exec::PhysicalOperator {
 public:
  StreamTap(exec::PhysicalOperatorPtr child, columnar::SchemaPtr result_schema,
            std::shared_ptr<ResultQueue> queue)
      : PhysicalOperator("ResultStream", nullptr, {}),
        result_schema_(std::move(result_schema)),
        queue_(std::move(queue)) {
    // The child's schema is read before the child moves (argument order is unspecified).
    schema_ = child->schema();
    children_.push_back(std::move(child));
  }

  Status Execute(exec::ExecContext& ctx, const columnar::Batch& input, exec::OperatorState&,
                 std::vector<columnar::Batch>*) override {
    if (input.num_rows() == 0) return Status::OK();
    SQE_ASSIGN_OR_RETURN(columnar::Batch renamed,
                         columnar::Batch::Make(result_schema_, input.columns(), input.num_rows()));
    stats_.rows_out.fetch_add(input.num_rows(), std::memory_order_relaxed);
    return queue_->Push(renamed, ctx);
  }

 private:
  columnar::SchemaPtr result_schema_;
  std::shared_ptr<ResultQueue> queue_;
};

/// The cursor of a statement that already ran.
class MaterializedCursor : public ResultCursor {
 public:
  explicit MaterializedCursor(QueryResult result) : result_(std::move(result)) {}
  const columnar::SchemaPtr& schema() const override { return result_.schema; }
  Result<std::optional<columnar::Batch>> Next() override {
    if (next_ >= result_.batches.size()) return std::optional<columnar::Batch>();
    return std::optional<columnar::Batch>(std::move(result_.batches[next_++]));
  }
  // Nothing runs any more; Next never waits.
  void Cancel() override {}
  const std::string& statement_type() const override { return result_.statement_type; }
  int64_t update_count() const override { return result_.update_count; }

 private:
  QueryResult result_;
  size_t next_ = 0;
};

/// The cursor of a query running on its own thread.
class StreamingCursor : public ResultCursor {
 public:
  StreamingCursor(std::shared_ptr<Engine> engine_owner, QuerySlot slot,
                  std::unique_ptr<exec::ExecContext> ctx, planner::PhysicalPlan plan,
                  columnar::SchemaPtr schema, std::shared_ptr<ResultQueue> queue)
      : engine_owner_(std::move(engine_owner)),
        slot_(std::move(slot)),
        ctx_(std::move(ctx)),
        plan_(std::move(plan)),
        schema_(std::move(schema)),
        queue_(std::move(queue)) {}

  ~StreamingCursor() override {
    Cancel();
    if (thread_.joinable()) thread_.join();
  }

  /// Runs the query on its own thread; it holds its QuerySlot until the thread ends.
  void Launch() {
    thread_ = std::thread([this] {
      Status status = exec::ExecutePlan(*ctx_, *plan_.root);
      // The place is free before the client sees the end, so its next query is admitted.
      slot_.Release();
      queue_->Finish(std::move(status));
    });
  }

  const columnar::SchemaPtr& schema() const override { return schema_; }
  Result<std::optional<columnar::Batch>> Next() override { return queue_->Pop(); }
  void Cancel() override {
    ctx_->Cancel("Query was canceled");
    queue_->Close();
  }
  const std::string& statement_type() const override { return statement_type_; }
  int64_t update_count() const override { return -1; }
  int64_t peak_memory_bytes() const override {
    return ctx_->tracker != nullptr ? ctx_->tracker->peak() : 0;
  }
  int64_t spilled_bytes() const override { return ctx_->spilled_bytes(); }
  int64_t cpu_nanos() const override { return ctx_->cpu_nanos.load(std::memory_order_relaxed); }

 private:
  std::shared_ptr<Engine> engine_owner_;
  QuerySlot slot_;
  std::unique_ptr<exec::ExecContext> ctx_;
  planner::PhysicalPlan plan_;
  columnar::SchemaPtr schema_;
  std::shared_ptr<ResultQueue> queue_;
  std::string statement_type_ = "SELECT";
  std::thread thread_;
};

}  // namespace

Result<std::unique_ptr<ResultCursor>> Session::Start(std::string_view sql,
                                                     const std::vector<exec::Value>& parameters) {
  SQE_ASSIGN_OR_RETURN(ast::StatementPtr statement, sql::ParseStatement(sql));
  std::lock_guard<std::mutex> lock(impl_->run_mutex);
  if (statement->kind != ast::StatementKind::kQuery) {
    SQE_ASSIGN_OR_RETURN(QueryResult result, impl_->Run(*statement, sql, parameters));
    return std::unique_ptr<ResultCursor>(new MaterializedCursor(std::move(result)));
  }
  Engine::Impl& engine = *impl_->engine;
  SQE_ASSIGN_OR_RETURN(
      QuerySlot slot,
      QuerySlot::Reserve(engine.running_queries, engine.config.query.max_concurrent_queries));
  const ast::Query& query = *static_cast<const ast::QueryStatement&>(*statement).query;
  std::unique_ptr<exec::ExecContext> ctx = impl_->MakeContext("query");
  SessionCatalog catalog(*impl_, ctx.get());
  SQE_ASSIGN_OR_RETURN(planner::BoundQuery bound,
                       planner::BindQuery(query, catalog, sql, parameters));
  SQE_ASSIGN_OR_RETURN(planner::LogicalPtr optimized, planner::Optimize(bound.plan));
  std::vector<columnar::Field> fields;
  for (size_t i = 0; i < bound.names.size(); ++i) {
    fields.emplace_back(bound.names[i], optimized->output[i].type, true);
  }
  columnar::SchemaPtr schema = columnar::Schema::Make(std::move(fields));
  auto queue = std::make_shared<ResultQueue>(kQueueCapacity);
  planner::PhysicalPlanOptions options;
  // The result is never collected whole, so query.max_result_rows (a guard against
  // buffering) does not apply to a streamed result.
  options.target_split_size = static_cast<int64_t>(engine.config.query.target_task_size);
  options.sort_mode = engine.config.query.sort_mode;
  options.trust_sort_order = engine.config.catalog.trust_sort_order;
  options.wrap_output = [&](exec::PhysicalOperatorPtr op) -> Result<exec::PhysicalOperatorPtr> {
    return exec::PhysicalOperatorPtr(new StreamTap(std::move(op), schema, queue));
  };
  SQE_ASSIGN_OR_RETURN(planner::PhysicalPlan physical,
                       planner::CreatePhysicalPlan(optimized, options));
  auto cursor = std::make_unique<StreamingCursor>(
      impl_->engine_owner, std::move(slot), std::move(ctx), std::move(physical), schema, queue);
  cursor->Launch();
  return std::unique_ptr<ResultCursor>(std::move(cursor));
}

}  // namespace sqe::engine

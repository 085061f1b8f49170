#include "exec/pipeline.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <ctime>
#include <functional>
#include <mutex>

namespace sqe::exec {

int PipelineBuilder::StartPipeline(PhysicalOperator* source) {
  pipelines_.push_back(Pipeline{source, {}, nullptr, {}});
  current_ = static_cast<int>(pipelines_.size()) - 1;
  return current_;
}

void PipelineBuilder::AddDependency(int pipeline, int depends_on) {
  pipelines_[pipeline].dependencies.push_back(depends_on);
}

int PipelineBuilder::AddContinuation(PhysicalOperator* source) {
  const int parent = current_;
  const size_t from = pipelines_[parent].operators.size();
  pipelines_.push_back(Pipeline{source, {}, nullptr, {}});
  const int index = static_cast<int>(pipelines_.size()) - 1;
  continuations_.push_back(Continuation{index, parent, from});
  return index;
}

void PipelineBuilder::ResolveContinuations() {
  // Parents are created before their continuations, so a parent that is itself a
  // continuation is complete by the time its own continuations are resolved.
  for (const Continuation& c : continuations_) {
    const Pipeline& parent = pipelines_[c.parent];
    Pipeline& p = pipelines_[c.pipeline];
    p.operators.assign(parent.operators.begin() + static_cast<std::ptrdiff_t>(c.from),
                       parent.operators.end());
    p.sink = parent.sink;
  }
  for (const Continuation& c : continuations_) {
    Pipeline& p = pipelines_[c.pipeline];
    p.dependencies.push_back(c.parent);
    // Operators later in the parent also stream the earlier continuations' rows: run
    // those first (a FULL join over a FULL join sees both inputs before its own rest).
    bool last = true;
    for (const Continuation& o : continuations_) {
      if (o.parent != c.parent || o.pipeline == c.pipeline) continue;
      if (o.from < c.from || (o.from == c.from && o.pipeline < c.pipeline)) {
        p.dependencies.push_back(o.pipeline);
      } else {
        last = false;
      }
    }
    pipelines_[c.parent].finalize_sink = false;
    if (!last) p.finalize_sink = false;
  }
  // Pipelines reading what the parent's sink produced wait for every continuation.
  std::vector<uint8_t> is_continuation(pipelines_.size(), 0);
  for (const Continuation& c : continuations_) is_continuation[c.pipeline] = 1;
  for (size_t i = 0; i < pipelines_.size(); ++i) {
    if (is_continuation[i]) continue;
    std::vector<int> extra;
    for (int d : pipelines_[i].dependencies) {
      for (const Continuation& c : continuations_) {
        if (c.parent == d) extra.push_back(c.pipeline);
      }
    }
    for (int e : extra) pipelines_[i].dependencies.push_back(e);
  }
}

std::vector<Pipeline> BuildPipelines(PhysicalOperator& root) {
  PipelineBuilder builder;
  root.BuildPipelines(builder);
  builder.ResolveContinuations();
  std::vector<Pipeline>& built = builder.pipelines();
  // Topological order: a pipeline runs after the ones it depends on; otherwise creation
  // order (children first). Pipelines without a sink (the one the root sink starts) go.
  std::vector<int> state(built.size(), 0);  // 0 new, 1 visiting, 2 done
  std::vector<Pipeline> ordered;
  std::function<void(int)> visit = [&](int i) {
    if (state[i] != 0) return;
    state[i] = 1;
    for (int d : built[i].dependencies) visit(d);
    state[i] = 2;
    if (built[i].sink != nullptr) ordered.push_back(built[i]);
  };
  for (size_t i = 0; i < built.size(); ++i) visit(static_cast<int>(i));
  for (Pipeline& p : ordered) p.dependencies.clear();  // already satisfied by the order
  return ordered;
}

namespace {

int64_t NowNanos() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// This thread's CPU clock.
int64_t ThreadCpuNanos() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return int64_t{t.tv_sec} * 1'000'000'000 + t.tv_nsec;
}

/// Adds the CPU time this thread spends in its scope to the query's ExecContext::cpu_nanos.
class ThreadCpuCharge {
 public:
  explicit ThreadCpuCharge(ExecContext& ctx) : ctx_(ctx), start_(ThreadCpuNanos()) {}
  ~ThreadCpuCharge() {
    ctx_.cpu_nanos.fetch_add(ThreadCpuNanos() - start_, std::memory_order_relaxed);
  }
  ThreadCpuCharge(const ThreadCpuCharge&) = delete;
  ThreadCpuCharge& operator=(const ThreadCpuCharge&) = delete;

 private:
  ExecContext& ctx_;
  const int64_t start_;
};

/// Pushes `batch` through operators[from...] into the sink.
Status Push(ExecContext& ctx, const Pipeline& p,
            std::vector<std::unique_ptr<OperatorState>>& states, OperatorState& sink_state,
            size_t from, const columnar::Batch& batch) {
  if (from == p.operators.size()) {
    if (batch.num_rows() == 0) return Status::OK();
    int64_t start = NowNanos();
    p.sink->stats().rows_in.fetch_add(batch.num_rows(), std::memory_order_relaxed);
    Status st = p.sink->Sink(ctx, batch, sink_state);
    p.sink->stats().cpu_nanos.fetch_add(NowNanos() - start, std::memory_order_relaxed);
    return st;
  }
  PhysicalOperator* op = p.operators[from];
  int64_t start = NowNanos();
  int64_t downstream = 0;  // time spent below this operator, not its own
  op->stats().rows_in.fetch_add(batch.num_rows(), std::memory_order_relaxed);
  SQE_RETURN_NOT_OK(
      op->ExecuteStreaming(ctx, batch, *states[from], [&](const columnar::Batch& b) -> Status {
        op->stats().rows_out.fetch_add(b.num_rows(), std::memory_order_relaxed);
        op->stats().batches_out.fetch_add(1, std::memory_order_relaxed);
        int64_t below = NowNanos();
        Status st = Push(ctx, p, states, sink_state, from + 1, b);
        downstream += NowNanos() - below;
        return st;
      }));
  op->stats().cpu_nanos.fetch_add(NowNanos() - start - downstream, std::memory_order_relaxed);
  return Status::OK();
}

Status RunPipeline(ExecContext& ctx, const Pipeline& p) {
  int threads = std::max(1, ctx.threads);
  if (p.source->SourceIsOrdered()) threads = 1;
  int64_t source_parallelism = p.source->SourceParallelism();
  if (source_parallelism > 0 && source_parallelism < threads) {
    threads = static_cast<int>(source_parallelism);
  }
  std::atomic<bool> failed{false};
  auto body = [&](int64_t) -> Status {
    ThreadCpuCharge charge(ctx);
    SQE_ASSIGN_OR_RETURN(auto source_state, p.source->MakeSourceState(ctx));
    std::vector<std::unique_ptr<OperatorState>> states;
    for (PhysicalOperator* op : p.operators) {
      SQE_ASSIGN_OR_RETURN(auto state, op->MakeOperatorState(ctx));
      states.push_back(std::move(state));
    }
    SQE_ASSIGN_OR_RETURN(auto sink_state, p.sink->MakeSinkState(ctx));
    Status st;
    while (true) {
      if (failed.load(std::memory_order_relaxed)) break;
      st = ctx.CheckInterrupt();
      if (!st.ok()) break;
      if (p.sink->SinkIsFull()) break;
      int64_t start = NowNanos();
      auto next = p.source->GetData(ctx, *source_state);
      p.source->stats().cpu_nanos.fetch_add(NowNanos() - start, std::memory_order_relaxed);
      if (!next.ok()) {
        st = next.status();
        break;
      }
      if (!next->has_value()) break;
      const columnar::Batch& batch = **next;
      p.source->stats().rows_out.fetch_add(batch.num_rows(), std::memory_order_relaxed);
      p.source->stats().batches_out.fetch_add(1, std::memory_order_relaxed);
      st = Push(ctx, p, states, *sink_state, 0, batch);
      if (!st.ok()) break;
    }
    if (st.ok()) {
      int64_t start = NowNanos();
      st = p.sink->Combine(ctx, *sink_state);
      p.sink->stats().cpu_nanos.fetch_add(NowNanos() - start, std::memory_order_relaxed);
    }
    if (!st.ok()) failed.store(true, std::memory_order_relaxed);
    return st;
  };
  SQE_RETURN_NOT_OK(ParallelFor(threads > 1 ? ctx.scheduler : nullptr, threads, threads, body));
  SQE_RETURN_NOT_OK(ctx.CheckInterrupt());
  if (!p.finalize_sink) return Status::OK();
  ThreadCpuCharge charge(ctx);
  int64_t start = NowNanos();
  Status st = p.sink->Finalize(ctx);
  p.sink->stats().cpu_nanos.fetch_add(NowNanos() - start, std::memory_order_relaxed);
  return st;
}

void RecordPeakMemory(const PhysicalOperator& op) {
  op.RecordPeakMemory();
  for (const auto& child : op.children()) RecordPeakMemory(*child);
}

}  // namespace

Status ExecutePlan(ExecContext& ctx, PhysicalOperator& root) {
  std::vector<Pipeline> pipelines = BuildPipelines(root);
  Status st;
  for (const Pipeline& p : pipelines) {
    st = RunPipeline(ctx, p);
    if (!st.ok()) break;
  }
  // Once, at the end: each operator's tracker keeps its peak (EXPLAIN ANALYZE).
  RecordPeakMemory(root);
  // Whichever allocation hit the limit, say that spilling could have helped.
  return SpillOffError(ctx.spill_enabled(), st);
}

}  // namespace sqe::exec

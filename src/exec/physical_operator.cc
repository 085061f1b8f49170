#include "exec/physical_operator.h"

#include <cstdio>
#include <iterator>
#include <string>

#include "exec/pipeline.h"

namespace sqe::exec {

PhysicalOperator::PhysicalOperator(std::string name, columnar::SchemaPtr schema,
                                   std::vector<std::unique_ptr<PhysicalOperator>> children)
    : name_(std::move(name)), schema_(std::move(schema)), children_(std::move(children)) {}

PhysicalOperator::~PhysicalOperator() = default;

namespace {
Status RoleMissing(const std::string& name, const char* role) {
  return Status::Internal("operator '" + name + "' has no " + role + " role");
}
}  // namespace

Result<std::unique_ptr<OperatorState>> PhysicalOperator::MakeSourceState(ExecContext&) {
  return std::make_unique<OperatorState>();
}
Result<std::optional<columnar::Batch>> PhysicalOperator::GetData(ExecContext&, OperatorState&) {
  return RoleMissing(name_, "source");
}
Result<std::unique_ptr<OperatorState>> PhysicalOperator::MakeOperatorState(ExecContext&) {
  return std::make_unique<OperatorState>();
}
Status PhysicalOperator::Execute(ExecContext&, const columnar::Batch&, OperatorState&,
                                 std::vector<columnar::Batch>*) {
  return RoleMissing(name_, "streaming");
}
Status PhysicalOperator::ExecuteStreaming(
    ExecContext& ctx, const columnar::Batch& input, OperatorState& state,
    const std::function<Status(const columnar::Batch&)>& emit) {
  std::vector<columnar::Batch> out;
  SQE_RETURN_NOT_OK(Execute(ctx, input, state, &out));
  for (const columnar::Batch& b : out) SQE_RETURN_NOT_OK(emit(b));
  return Status::OK();
}

Result<std::unique_ptr<OperatorState>> PhysicalOperator::MakeSinkState(ExecContext&) {
  return std::make_unique<OperatorState>();
}
Status PhysicalOperator::Sink(ExecContext&, const columnar::Batch&, OperatorState&) {
  return RoleMissing(name_, "sink");
}
Status PhysicalOperator::Combine(ExecContext&, OperatorState&) { return Status::OK(); }
Status PhysicalOperator::Finalize(ExecContext&) { return Status::OK(); }

void PhysicalOperator::BuildPipelines(PipelineBuilder& builder) {
  if (IsSink()) {
    // End the child's pipeline here, then start a new one reading from this operator.
    children_[0]->BuildPipelines(builder);
    builder.current().sink = this;
    int finished = builder.current_index();
    int next = builder.StartPipeline(this);
    builder.AddDependency(next, finished);
    return;
  }
  if (IsSource() || children_.empty()) {
    builder.StartPipeline(this);
    return;
  }
  children_[0]->BuildPipelines(builder);
  builder.current().operators.push_back(this);
}

std::vector<PhysicalOperatorPtr> Children(PhysicalOperatorPtr first, PhysicalOperatorPtr second) {
  std::vector<PhysicalOperatorPtr> children;
  children.push_back(std::move(first));
  if (second != nullptr) children.push_back(std::move(second));
  return children;
}

std::shared_ptr<MemoryTracker> PhysicalOperator::MakeTracker(ExecContext& ctx) const {
  if (ctx.tracker == nullptr) return nullptr;
  std::lock_guard<std::mutex> lock(tracker_mutex_);
  if (operator_tracker_ == nullptr || operator_tracker_->parent() != ctx.tracker) {
    operator_tracker_ = ctx.tracker->CreateChild(MemoryScope::kOperator, name_);
  }
  return operator_tracker_;
}

void PhysicalOperator::RecordPeakMemory() const {
  std::lock_guard<std::mutex> lock(tracker_mutex_);
  if (operator_tracker_ == nullptr) return;
  const int64_t peak = operator_tracker_->peak();
  if (peak > stats_.peak_memory.load(std::memory_order_relaxed)) {
    stats_.peak_memory.store(peak, std::memory_order_relaxed);
  }
}

std::string FormatBytes(int64_t bytes) {
  static constexpr const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB", "PiB"};
  if (bytes < 1024) return std::to_string(bytes) + "B";
  double value = static_cast<double>(bytes) / 1024;
  size_t unit = 0;
  while (value >= 1024 && unit + 1 < std::size(kUnits)) {
    value /= 1024;
    ++unit;
  }
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.1f%s", value, kUnits[unit]);
  return buffer;
}

namespace {

std::string FormatNanos(int64_t nanos) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.1fms", static_cast<double>(nanos) / 1e6);
  return buffer;
}

void ExplainNode(const PhysicalOperator& op, bool analyze, int depth, std::string* out) {
  out->append(static_cast<size_t>(depth) * 2, ' ');
  if (depth > 0) out->append("- ");
  out->append(op.name());
  std::string details = op.Details();
  if (!details.empty()) {
    out->append(" ");
    out->append(details);
  }
  if (op.estimated_rows >= 0) out->append(" est_rows=" + std::to_string(op.estimated_rows));
  if (analyze) {
    const OperatorStats& s = op.stats();
    out->append(" [rows=" + std::to_string(s.rows_out.load()) +
                " time=" + FormatNanos(s.cpu_nanos.load()));
    if (s.peak_memory.load() > 0) out->append(" peak_memory=" + FormatBytes(s.peak_memory.load()));
    if (s.bytes_read.load() > 0) out->append(" bytes_read=" + FormatBytes(s.bytes_read.load()));
    if (s.files_read.load() + s.files_pruned.load() > 0) {
      out->append(" files_read=" + std::to_string(s.files_read.load()) +
                  " files_pruned=" + std::to_string(s.files_pruned.load()));
    }
    if (s.row_groups_read.load() + s.row_groups_pruned.load() > 0) {
      out->append(" row_groups_read=" + std::to_string(s.row_groups_read.load()) +
                  " row_groups_pruned=" + std::to_string(s.row_groups_pruned.load()));
    }
    if (!s.extra.empty()) out->append(" " + s.extra);
    out->append("]");
  }
  out->append("\n");
  for (const auto& child : op.children()) ExplainNode(*child, analyze, depth + 1, out);
}

}  // namespace

std::string ExplainPhysicalPlan(const PhysicalOperator& root, bool analyze) {
  std::string out;
  ExplainNode(root, analyze, 0, &out);
  return out;
}

}  // namespace sqe::exec

#include "planner/optimizer.h"

namespace sqe::planner {

Result<LogicalPtr> Optimize(const LogicalPtr& plan) { return plan; }

}  // namespace sqe::planner

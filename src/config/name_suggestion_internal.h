#pragma once
/// "Did you mean": the closest known name to a misspelt key, by edit distance.

#include <string>
#include <string_view>
#include <vector>

namespace sqe::config {

/// Optimal-string-alignment distance (insertions, deletions, substitutions and adjacent
/// transpositions each cost 1), case-sensitive.
size_t EditDistance(std::string_view a, std::string_view b);

/// The candidate closest to `name` when it is close enough to be a likely typo (distance
/// <= 2, or <= a third of the name's length for long names); "" otherwise. Ties go to the
/// earlier candidate.
std::string ClosestName(std::string_view name, const std::vector<std::string>& candidates);

}  // namespace sqe::config

#pragma once
/// The value lists of the TPC-H specification (clause 4.2.2.13 and 4.2.3): the words of
/// the comment grammar with their weights, and the lists the columns draw from (colors of
/// part names, part types and containers, market segments, order priorities, shipping
/// instructions and modes, nations and regions). Immutable, thread-safe.

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "datagen/row_random.h"

namespace sqe::datagen {

/// A list of words, each drawn with a probability proportional to its weight.
class Distribution {
 public:
  struct Entry {
    std::string_view word;
    int weight;
  };
  Distribution(std::initializer_list<Entry> entries);

  /// A word drawn by weight.
  std::string_view Pick(RowRandom& rng) const;
  int64_t size() const { return static_cast<int64_t>(entries_.size()); }
  std::string_view at(int64_t i) const { return entries_[static_cast<size_t>(i)].word; }

 private:
  std::vector<Entry> entries_;
  std::vector<int> cumulative_;  // running sum of the weights
};

/// The grammar's word classes and sentence shapes (4.2.2.13).
const Distribution& Nouns();
const Distribution& Verbs();
const Distribution& Adjectives();
const Distribution& Adverbs();
const Distribution& Prepositions();
const Distribution& Auxiliaries();
const Distribution& Terminators();
/// Sentence shapes: N noun phrase, V verb phrase, P prepositional phrase, T terminator.
const Distribution& SentenceShapes();
/// Noun phrase shapes: N noun, J adjective, D adverb, ',' a comma after the word before.
const Distribution& NounPhraseShapes();
/// Verb phrase shapes: V verb, X auxiliary, D adverb.
const Distribution& VerbPhraseShapes();

/// Column value lists (uniform).
const Distribution& PartColors();     // P_NAME words
const Distribution& TypeSyllable1();  // P_TYPE
const Distribution& TypeSyllable2();
const Distribution& TypeSyllable3();
const Distribution& ContainerSyllable1();  // P_CONTAINER
const Distribution& ContainerSyllable2();
const Distribution& MarketSegments();
const Distribution& OrderPriorities();
const Distribution& ShipInstructions();
const Distribution& ShipModes();

/// The 25 nations in key order, with their region keys, and the 5 regions.
struct NationEntry {
  std::string_view name;
  int32_t region_key;
};
std::span<const NationEntry> Nations();
std::span<const std::string_view> Regions();

}  // namespace sqe::datagen

#include "datagen/text_pool.h"

#include "datagen/tpch_distributions.h"

namespace sqe::datagen {
namespace {

// Stream id of the pool's random numbers (tables use their own).
constexpr uint64_t kTextStream = 0x7E47;

void AppendWord(std::string_view word, std::string* out) {
  if (!out->empty() && out->back() != ' ') out->push_back(' ');
  out->append(word);
}

void AppendNounPhrase(RowRandom& rng, std::string* out) {
  for (char c : NounPhraseShapes().Pick(rng)) {
    switch (c) {
      case 'N':
        AppendWord(Nouns().Pick(rng), out);
        break;
      case 'J':
        AppendWord(Adjectives().Pick(rng), out);
        break;
      case 'D':
        AppendWord(Adverbs().Pick(rng), out);
        break;
      case ',':
        out->push_back(',');
        break;
    }
  }
}

void AppendVerbPhrase(RowRandom& rng, std::string* out) {
  for (char c : VerbPhraseShapes().Pick(rng)) {
    switch (c) {
      case 'V':
        AppendWord(Verbs().Pick(rng), out);
        break;
      case 'X':
        AppendWord(Auxiliaries().Pick(rng), out);
        break;
      case 'D':
        AppendWord(Adverbs().Pick(rng), out);
        break;
    }
  }
}

}  // namespace

void AppendSentence(RowRandom& rng, std::string* out) {
  for (char c : SentenceShapes().Pick(rng)) {
    switch (c) {
      case 'N':
        AppendNounPhrase(rng, out);
        break;
      case 'V':
        AppendVerbPhrase(rng, out);
        break;
      case 'P':
        AppendWord(Prepositions().Pick(rng), out);
        AppendWord("the", out);
        AppendNounPhrase(rng, out);
        break;
      case 'T':
        out->append(Terminators().Pick(rng));
        break;
    }
  }
}

std::shared_ptr<const TextPool> TextPool::Make(uint64_t seed, int64_t bytes) {
  auto pool = std::make_shared<TextPool>();
  std::string& text = pool->text_;
  const size_t target = static_cast<size_t>(std::max<int64_t>(bytes, 1024));
  text.reserve(target + 256);
  RowRandom rng(seed, kTextStream, 0);
  while (text.size() < target) {
    if (!text.empty()) text.push_back(' ');
    AppendSentence(rng, &text);
  }
  return pool;
}

std::string_view TextPool::Text(RowRandom& rng, int min_length, int max_length) const {
  const int64_t length = rng.Uniform(min_length, max_length);
  const int64_t offset = rng.Uniform(0, static_cast<int64_t>(text_.size()) - length);
  return std::string_view(text_).substr(static_cast<size_t>(offset), static_cast<size_t>(length));
}

}  // namespace sqe::datagen

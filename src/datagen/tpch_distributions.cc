#include "datagen/tpch_distributions.h"

#include <algorithm>

namespace sqe::datagen {

Distribution::Distribution(std::initializer_list<Entry> entries) : entries_(entries) {
  int sum = 0;
  cumulative_.reserve(entries_.size());
  for (const Entry& e : entries_) {
    sum += e.weight;
    cumulative_.push_back(sum);
  }
}

std::string_view Distribution::Pick(RowRandom& rng) const {
  const int r = static_cast<int>(rng.Uniform(1, cumulative_.back()));
  auto it = std::lower_bound(cumulative_.begin(), cumulative_.end(), r);
  return entries_[static_cast<size_t>(it - cumulative_.begin())].word;
}

const Distribution& Nouns() {
  static const Distribution d{
      {"packages", 40},     {"requests", 40},     {"accounts", 40},      {"deposits", 40},
      {"foxes", 20},        {"ideas", 20},        {"theodolites", 20},   {"pinto beans", 20},
      {"instructions", 20}, {"dependencies", 10}, {"excuses", 10},       {"platelets", 10},
      {"asymptotes", 10},   {"courts", 5},        {"dolphins", 5},       {"multipliers", 1},
      {"sauternes", 1},     {"warthogs", 1},      {"frets", 1},          {"dinos", 1},
      {"attainments", 1},   {"somas", 1},         {"Tiresias", 1},       {"patterns", 1},
      {"forges", 1},        {"braids", 1},        {"hockey players", 1}, {"frays", 1},
      {"warhorses", 1},     {"dugouts", 1},       {"notornis", 1},       {"epitaphs", 1},
      {"pearls", 1},        {"tithes", 1},        {"waters", 1},         {"orbits", 1},
      {"gifts", 1},         {"sheaves", 1},       {"depths", 1},         {"sentiments", 1},
      {"decoys", 1},        {"realms", 1},        {"pains", 1},          {"grouches", 1},
      {"escapades", 1}};
  return d;
}

const Distribution& Verbs() {
  static const Distribution d{
      {"sleep", 20},    {"wake", 20},    {"are", 20},   {"cajole", 20}, {"haggle", 20},
      {"nag", 10},      {"use", 10},     {"boost", 10}, {"affix", 5},   {"detect", 5},
      {"integrate", 5}, {"maintain", 1}, {"nod", 1},    {"was", 1},     {"lose", 1},
      {"sublate", 1},   {"solve", 1},    {"thrash", 1}, {"promise", 1}, {"engage", 1},
      {"hinder", 1},    {"print", 1},    {"x-ray", 1},  {"breach", 1},  {"eat", 1},
      {"grow", 1},      {"impress", 1},  {"mold", 1},   {"poach", 1},   {"serve", 1},
      {"run", 1},       {"dazzle", 1},   {"snooze", 1}, {"doze", 1},    {"unwind", 1},
      {"kindle", 1},    {"play", 1},     {"hang", 1},   {"believe", 1}, {"doubt", 1}};
  return d;
}

const Distribution& Adjectives() {
  static const Distribution d{
      {"special", 20}, {"pending", 20}, {"unusual", 20}, {"express", 20}, {"furious", 1},
      {"sly", 1},      {"careful", 1},  {"blithe", 1},   {"quick", 1},    {"fluffy", 1},
      {"slow", 1},     {"quiet", 1},    {"ruthless", 1}, {"thin", 1},     {"close", 1},
      {"dogged", 1},   {"daring", 1},   {"brave", 1},    {"stealthy", 1}, {"permanent", 1},
      {"enticing", 1}, {"idle", 1},     {"busy", 1},     {"regular", 50}, {"final", 40},
      {"ironic", 40},  {"even", 30},    {"bold", 20},    {"silent", 10}};
  return d;
}

const Distribution& Adverbs() {
  static const Distribution d{
      {"sometimes", 1},  {"always", 1},     {"never", 1},       {"furiously", 50},
      {"slyly", 50},     {"carefully", 50}, {"blithely", 40},   {"quickly", 30},
      {"fluffily", 20},  {"slowly", 1},     {"quietly", 1},     {"ruthlessly", 1},
      {"thinly", 1},     {"closely", 1},    {"doggedly", 1},    {"daringly", 1},
      {"bravely", 1},    {"stealthily", 1}, {"permanently", 1}, {"enticingly", 1},
      {"idly", 1},       {"busily", 1},     {"regularly", 1},   {"finally", 1},
      {"ironically", 1}, {"evenly", 1},     {"boldly", 1},      {"silently", 1}};
  return d;
}

const Distribution& Prepositions() {
  static const Distribution d{{"about", 50},
                              {"above", 50},
                              {"according to", 50},
                              {"across", 50},
                              {"after", 50},
                              {"against", 40},
                              {"along", 40},
                              {"alongside of", 30},
                              {"among", 30},
                              {"around", 20},
                              {"at", 10},
                              {"atop", 1},
                              {"before", 1},
                              {"behind", 1},
                              {"beneath", 1},
                              {"beside", 1},
                              {"besides", 1},
                              {"between", 1},
                              {"beyond", 1},
                              {"by", 1},
                              {"despite", 1},
                              {"during", 1},
                              {"except", 1},
                              {"for", 1},
                              {"from", 1},
                              {"in place of", 1},
                              {"inside", 1},
                              {"instead of", 1},
                              {"into", 1},
                              {"near", 1},
                              {"of", 1},
                              {"on", 1},
                              {"outside", 1},
                              {"over", 1},
                              {"past", 1},
                              {"since", 1},
                              {"through", 1},
                              {"throughout", 1},
                              {"to", 1},
                              {"toward", 1},
                              {"under", 1},
                              {"until", 1},
                              {"up", 1},
                              {"upon", 1},
                              {"without", 1},
                              {"with", 1},
                              {"within", 1}};
  return d;
}

const Distribution& Auxiliaries() {
  static const Distribution d{{"do", 1},
                              {"may", 1},
                              {"might", 1},
                              {"shall", 1},
                              {"will", 1},
                              {"would", 1},
                              {"can", 1},
                              {"could", 1},
                              {"should", 1},
                              {"ought to", 1},
                              {"must", 1},
                              {"will have to", 1},
                              {"shall have to", 1},
                              {"could have to", 1},
                              {"should have to", 1},
                              {"must have to", 1},
                              {"need to", 1},
                              {"try to", 1}};
  return d;
}

const Distribution& Terminators() {
  static const Distribution d{{".", 50}, {";", 1}, {":", 1}, {"?", 1}, {"!", 1}, {"--", 1}};
  return d;
}

const Distribution& SentenceShapes() {
  static const Distribution d{{"NVT", 3}, {"NVPT", 3}, {"NVNT", 3}, {"NPVNT", 1}, {"NPVPT", 1}};
  return d;
}

const Distribution& NounPhraseShapes() {
  static const Distribution d{{"N", 10}, {"JN", 20}, {"J,JN", 10}, {"DJN", 50}};
  return d;
}

const Distribution& VerbPhraseShapes() {
  static const Distribution d{{"V", 30}, {"XV", 1}, {"VD", 40}, {"XVD", 1}};
  return d;
}

const Distribution& PartColors() {
  static const Distribution d{
      {"almond", 1},    {"antique", 1},   {"aquamarine", 1}, {"azure", 1},      {"beige", 1},
      {"bisque", 1},    {"black", 1},     {"blanched", 1},   {"blue", 1},       {"blush", 1},
      {"brown", 1},     {"burlywood", 1}, {"burnished", 1},  {"chartreuse", 1}, {"chiffon", 1},
      {"chocolate", 1}, {"coral", 1},     {"cornflower", 1}, {"cornsilk", 1},   {"cream", 1},
      {"cyan", 1},      {"dark", 1},      {"deep", 1},       {"dim", 1},        {"dodger", 1},
      {"drab", 1},      {"firebrick", 1}, {"floral", 1},     {"forest", 1},     {"frosted", 1},
      {"gainsboro", 1}, {"ghost", 1},     {"goldenrod", 1},  {"green", 1},      {"grey", 1},
      {"honeydew", 1},  {"hot", 1},       {"indian", 1},     {"ivory", 1},      {"khaki", 1},
      {"lace", 1},      {"lavender", 1},  {"lawn", 1},       {"lemon", 1},      {"light", 1},
      {"lime", 1},      {"linen", 1},     {"magenta", 1},    {"maroon", 1},     {"medium", 1},
      {"metallic", 1},  {"midnight", 1},  {"mint", 1},       {"misty", 1},      {"moccasin", 1},
      {"navajo", 1},    {"navy", 1},      {"olive", 1},      {"orange", 1},     {"orchid", 1},
      {"pale", 1},      {"papaya", 1},    {"peach", 1},      {"peru", 1},       {"pink", 1},
      {"plum", 1},      {"powder", 1},    {"puff", 1},       {"purple", 1},     {"red", 1},
      {"rose", 1},      {"rosy", 1},      {"royal", 1},      {"saddle", 1},     {"salmon", 1},
      {"sandy", 1},     {"seashell", 1},  {"sienna", 1},     {"sky", 1},        {"slate", 1},
      {"smoke", 1},     {"snow", 1},      {"spring", 1},     {"steel", 1},      {"tan", 1},
      {"thistle", 1},   {"tomato", 1},    {"turquoise", 1},  {"violet", 1},     {"wheat", 1},
      {"white", 1},     {"yellow", 1}};
  return d;
}

const Distribution& TypeSyllable1() {
  static const Distribution d{{"STANDARD", 1}, {"SMALL", 1},   {"MEDIUM", 1},
                              {"LARGE", 1},    {"ECONOMY", 1}, {"PROMO", 1}};
  return d;
}

const Distribution& TypeSyllable2() {
  static const Distribution d{
      {"ANODIZED", 1}, {"BURNISHED", 1}, {"PLATED", 1}, {"POLISHED", 1}, {"BRUSHED", 1}};
  return d;
}

const Distribution& TypeSyllable3() {
  static const Distribution d{{"TIN", 1}, {"NICKEL", 1}, {"BRASS", 1}, {"STEEL", 1}, {"COPPER", 1}};
  return d;
}

const Distribution& ContainerSyllable1() {
  static const Distribution d{{"SM", 1}, {"LG", 1}, {"MED", 1}, {"JUMBO", 1}, {"WRAP", 1}};
  return d;
}

const Distribution& ContainerSyllable2() {
  static const Distribution d{{"CASE", 1}, {"BOX", 1},  {"BAG", 1}, {"JAR", 1},
                              {"PKG", 1},  {"PACK", 1}, {"CAN", 1}, {"DRUM", 1}};
  return d;
}

const Distribution& MarketSegments() {
  static const Distribution d{
      {"AUTOMOBILE", 1}, {"BUILDING", 1}, {"FURNITURE", 1}, {"MACHINERY", 1}, {"HOUSEHOLD", 1}};
  return d;
}

const Distribution& OrderPriorities() {
  static const Distribution d{
      {"1-URGENT", 1}, {"2-HIGH", 1}, {"3-MEDIUM", 1}, {"4-NOT SPECIFIED", 1}, {"5-LOW", 1}};
  return d;
}

const Distribution& ShipInstructions() {
  static const Distribution d{
      {"DELIVER IN PERSON", 1}, {"COLLECT COD", 1}, {"NONE", 1}, {"TAKE BACK RETURN", 1}};
  return d;
}

const Distribution& ShipModes() {
  static const Distribution d{{"REG AIR", 1}, {"AIR", 1},  {"RAIL", 1}, {"SHIP", 1},
                              {"TRUCK", 1},   {"MAIL", 1}, {"FOB", 1}};
  return d;
}

std::span<const NationEntry> Nations() {
  static constexpr NationEntry kNations[] = {
      {"ALGERIA", 0},      {"ARGENTINA", 1}, {"BRAZIL", 1}, {"CANADA", 1},
      {"EGYPT", 4},        {"ETHIOPIA", 0},  {"FRANCE", 3}, {"GERMANY", 3},
      {"INDIA", 2},        {"INDONESIA", 2}, {"IRAN", 4},   {"IRAQ", 4},
      {"JAPAN", 2},        {"JORDAN", 4},    {"KENYA", 0},  {"MOROCCO", 0},
      {"MOZAMBIQUE", 0},   {"PERU", 1},      {"CHINA", 2},  {"ROMANIA", 3},
      {"SAUDI ARABIA", 4}, {"VIETNAM", 2},   {"RUSSIA", 3}, {"UNITED KINGDOM", 3},
      {"UNITED STATES", 1}};
  return kNations;
}

std::span<const std::string_view> Regions() {
  static constexpr std::string_view kRegions[] = {"AFRICA", "AMERICA", "ASIA", "EUROPE",
                                                  "MIDDLE EAST"};
  return kRegions;
}

}  // namespace sqe::datagen

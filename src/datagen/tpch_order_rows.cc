// TpchGenerator's orders and lineitem (clause 4.2.3): an order and its lines are drawn
// together from the order's random stream, so each table can be generated alone and
// O_TOTALPRICE / O_ORDERSTATUS agree with the lines.
#include <string>

#include "columnar/civil_time.h"
#include "datagen/batch_assembler.h"
#include "datagen/tpch_distributions.h"
#include "datagen/tpch_generator.h"
#include "datagen/tpch_generator_internal.h"

namespace sqe::datagen {
namespace {

const int32_t kStartDate = static_cast<int32_t>(columnar::DaysFromCivil(1992, 1, 1));
const int32_t kCurrentDate = static_cast<int32_t>(columnar::DaysFromCivil(1995, 6, 17));
const int32_t kEndDate = static_cast<int32_t>(columnar::DaysFromCivil(1998, 12, 31));

struct Line {
  int64_t partkey;
  int64_t suppkey;
  int64_t quantity;
  int64_t extended_cents;
  int64_t discount;  // percent
  int64_t tax;       // percent
  int32_t ship;
  int32_t commit;
  int32_t receipt;
  char returnflag;
  char linestatus;
  std::string_view instruct;
  std::string_view mode;
  std::string_view comment;
};

struct Order {
  int64_t orderkey;
  int64_t custkey;
  char status;
  int64_t total_cents;
  int32_t date;
  std::string_view priority;
  int64_t clerk;
  std::string_view comment;
  int lines;
  Line line[7];
};

void DrawOrder(uint64_t seed, int64_t index, int64_t customers, int64_t parts, int64_t suppliers,
               int64_t clerks, const TextPool& text, Order* o) {
  RowRandom rng(seed, internal::kOrdersStream, static_cast<uint64_t>(index));
  o->orderkey = TpchOrderKey(index);
  // Every third customer places no orders (clause 4.2.3, O_CUSTKEY). A draw that hits
  // one moves to the next key, as dbgen's does: customers with key % 3 == 1 then place
  // twice as many orders as those with key % 3 == 2, which is the spread of orders per
  // customer Q13 reports.
  o->custkey = rng.Uniform(1, customers);
  if (o->custkey % 3 == 0) o->custkey += o->custkey < customers ? 1 : -1;
  o->date = static_cast<int32_t>(rng.Uniform(kStartDate, kEndDate - 151));
  o->priority = OrderPriorities().Pick(rng);
  o->clerk = rng.Uniform(1, clerks);
  o->comment = text.Text(rng, 19, 78);
  o->lines = static_cast<int>(rng.Uniform(1, 7));
  o->total_cents = 0;
  int shipped = 0;
  for (int k = 0; k < o->lines; ++k) {
    Line& l = o->line[k];
    l.partkey = rng.Uniform(1, parts);
    l.suppkey = TpchPartSupplier(l.partkey, rng.Uniform(0, 3), suppliers);
    l.quantity = rng.Uniform(1, 50);
    l.extended_cents = l.quantity * TpchRetailPriceCents(l.partkey);
    l.discount = rng.Uniform(0, 10);
    l.tax = rng.Uniform(0, 8);
    l.ship = o->date + static_cast<int32_t>(rng.Uniform(1, 121));
    l.commit = o->date + static_cast<int32_t>(rng.Uniform(30, 90));
    l.receipt = l.ship + static_cast<int32_t>(rng.Uniform(1, 30));
    const char returned = rng.Uniform(0, 1) == 0 ? 'R' : 'A';
    l.returnflag = l.receipt <= kCurrentDate ? returned : 'N';
    l.linestatus = l.ship > kCurrentDate ? 'O' : 'F';
    l.instruct = ShipInstructions().Pick(rng);
    l.mode = ShipModes().Pick(rng);
    l.comment = text.Text(rng, 10, 43);
    if (l.linestatus == 'F') ++shipped;
    o->total_cents += (l.extended_cents * (100 - l.discount) * (100 + l.tax) + 5000) / 10000;
  }
  o->status = shipped == o->lines ? 'F' : (shipped == 0 ? 'O' : 'P');
}

}  // namespace

Result<columnar::Batch> TpchGenerator::Orders(int64_t first, int64_t count) const {
  BatchAssembler out(TpchSchema(TpchTable::kOrders), count);
  std::string text;
  Order o;
  for (int64_t i = first; i < first + count; ++i) {
    DrawOrder(options_.seed, i, customers_, parts_, suppliers_, clerks_, *text_, &o);
    out.Int64(0, o.orderkey);
    out.Int64(1, o.custkey);
    out.String(2, std::string_view(&o.status, 1));
    out.Money(3, o.total_cents);
    out.Date(4, o.date);
    out.String(5, o.priority);
    internal::FormatKeyName("Clerk#", o.clerk, &text);
    out.String(6, text);
    out.Int32(7, 0);
    out.String(8, o.comment);
  }
  return out.Finish(count);
}

Result<columnar::Batch> TpchGenerator::Lineitem(int64_t first, int64_t count) const {
  BatchAssembler out(TpchSchema(TpchTable::kLineitem), count * 4);
  Order o;
  int64_t rows = 0;
  for (int64_t i = first; i < first + count; ++i) {
    DrawOrder(options_.seed, i, customers_, parts_, suppliers_, clerks_, *text_, &o);
    for (int k = 0; k < o.lines; ++k) {
      const Line& l = o.line[k];
      out.Int64(0, o.orderkey);
      out.Int64(1, l.partkey);
      out.Int64(2, l.suppkey);
      out.Int64(3, k + 1);
      out.Money(4, l.quantity * 100);
      out.Money(5, l.extended_cents);
      out.Money(6, l.discount);
      out.Money(7, l.tax);
      out.String(8, std::string_view(&l.returnflag, 1));
      out.String(9, std::string_view(&l.linestatus, 1));
      out.Date(10, l.ship);
      out.Date(11, l.commit);
      out.Date(12, l.receipt);
      out.String(13, l.instruct);
      out.String(14, l.mode);
      out.String(15, l.comment);
    }
    rows += o.lines;
  }
  return out.Finish(rows);
}

}  // namespace sqe::datagen

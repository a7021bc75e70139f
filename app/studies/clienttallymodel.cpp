#include "clienttallymodel.h"

#include <QLocale>

namespace {
using Column = ClientTallyModel::Column;

Column count(std::function<QString()> header, std::function<QString()> tip, qint64 ClientTally::*field)
{
    return {std::move(header), std::move(tip),
            [field](const ClientTally& tally) { return QLocale().toString(tally.*field); },
            [field](const ClientTally& tally) { return QVariant(tally.*field); }};
}
} // namespace

ClientTallyModel::ClientTallyModel(QObject* parent)
    : RowTableModel<ClientTally>(
        {
            {[] { return tr("server"); },
             [] { return tr("The app server and its arrivals, clock offset and drift."); },
             [](const ClientTally& tally) { return tr("%1: %2").arg(tally.client + 1).arg(tally.profile); },
             [](const ClientTally& tally) { return QVariant(qint64(tally.client) + 1); },
             {},
             Qt::AlignLeft | Qt::AlignVCenter},
            count([] { return tr("sent"); }, [] { return tr("Requests finished (answered or failed)."); },
                  &ClientTally::sent),
            count([] { return tr("stored"); },
                  [] { return tr("Requests that created a ZSET member of their own (ZADD replied 1)."); },
                  &ClientTally::stored),
            count([] { return tr("overwritten"); },
                  [] { return tr("Requests that only updated an existing member (ZADD replied 0)."); },
                  &ClientTally::overwritten),
            count([] { return tr("… another server's"); },
                  [] {
                      return tr("Of the overwritten, those whose member another server had created: servers whose "
                                "clocks agree on the millisecond collide.");
                  },
                  &ClientTally::overwroteOtherClient),
            count([] { return tr("over limit"); },
                  [] { return tr("Requests admitted while the true number in the window was above the limit."); },
                  &ClientTally::admittedOverLimit),
        },
        parent)
{ }

qint64 ClientTallyModel::total(int column) const
{
    qint64 sum = 0;
    for (int row = 0; row < rowCount(); ++row)
        sum += index(row, column).data(ValueRole).toLongLong();
    return sum;
}

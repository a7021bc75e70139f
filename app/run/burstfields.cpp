#include "burstfields.h"

#include "burst/burstplan.h"

#include "widgets/retranslator.h"
#include <algorithm>

#include <QComboBox>
#include <QFormLayout>
#include <QSpinBox>

BurstFields BurstFields::addRows(QFormLayout* form, QWidget* panel, Retranslator& texts)
{
    BurstFields fields;
    QComboBox* clock = fields.clock = new QComboBox(panel);
    clock->addItem(QString(), int(ClockKind::Schedule));
    clock->addItem(QString(), int(ClockKind::SystemMs));
    texts.add([clock] {
        clock->setItemText(0, tr("schedule (exact)"));
        clock->setItemText(1, tr("system-ms (wall)"));
    });
    texts.addRow(form, clock, clock, [] { return tr("&Clock"); });

    QComboBox* limiterBox = fields.limiterBox = new QComboBox(panel);
    const QVector<LimiterRef>& limiters = LimiterCatalog::all();
    for (const LimiterRef& limiter : limiters)
        limiterBox->addItem(QString(), limiter->id);
    texts.add([limiterBox, limiters] {
        for (int i = 0; i < limiters.size(); ++i) {
            const LimiterEntry& limiter = *limiters[i];
            QString text;
            switch (limiter.role) {
            case LimiterEntry::Role::Bug:
                text = tr("%1 (the bug)").arg(limiter.displayName());
                break;
            case LimiterEntry::Role::Fix:
                text = tr("unique: %1").arg(limiter.displayName());
                break;
            case LimiterEntry::Role::Algorithm:
                text = tr("algorithm: %1").arg(limiter.displayName());
                break;
            case LimiterEntry::Role::Trap:
            case LimiterEntry::Role::Custom:
                text = tr("trap: %1").arg(limiter.displayName());
                break;
            }
            limiterBox->setItemText(i, text);
            limiterBox->setItemData(i, limiter.displaySummary(), Qt::ToolTipRole);
        }
    });
    texts.addRow(form, limiterBox, limiterBox, [] { return tr("&Member"); });

    QSpinBox* window = fields.window = new QSpinBox(panel);
    window->setRange(1, 3'600'000);
    window->setGroupSeparatorShown(true);
    texts.add([window] { window->setSuffix(tr(" ms")); });
    texts.addRow(form, window, window, [] { return tr("&Window"); });

    QSpinBox* limit = fields.limit = new QSpinBox(panel);
    limit->setRange(0, 1'000'000'000);
    limit->setGroupSeparatorShown(true);
    texts.add([limit] { limit->setSpecialValueText(tr("none")); });
    texts.addRow(form, limit, limit, [] { return tr("&Limit"); });
    for (QComboBox* box : {clock, limiterBox}) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(14);
    }
    return fields;
}

LimiterRef BurstFields::limiter() const
{
    const LimiterRef chosen = LimiterCatalog::find(limiterBox->currentData().toString());
    return chosen ? chosen : LimiterCatalog::builtin("now");
}

void BurstFields::setLimiter(const LimiterRef& limiter) const
{
    limiterBox->setCurrentIndex(std::max(0, limiterBox->findData(limiter->id)));
}

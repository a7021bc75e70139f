#include "burstfields.h"

#include "burstplan.h"
#include "retranslator.h"

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

    QComboBox* strategy = fields.strategy = new QComboBox(panel);
    for (const MemberStrategy member :
         {MemberStrategy::Now, MemberStrategy::RequestId, MemberStrategy::Random, MemberStrategy::Sequence})
        strategy->addItem(QString(), int(member));
    texts.add([strategy] {
        strategy->setItemText(0, tr("now (the bug)"));
        strategy->setItemText(1, tr("unique: request id"));
        strategy->setItemText(2, tr("unique: random"));
        strategy->setItemText(3, tr("unique: sequence"));
    });
    texts.addRow(form, strategy, strategy, [] { return tr("&Member"); });

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
    for (QComboBox* box : {clock, strategy}) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(14);
    }
    return fields;
}

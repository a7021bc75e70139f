#include "forkdialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSpinBox>

#include <algorithm>
#include <climits>

ForkDialog::ForkDialog(const Recording& recording, int from, QWidget* parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("ForkDialog"));
    setWindowTitle(tr("What if…"));
    const RecordingInfo& info = recording.info();
    m_originalLimiter = info.limiter;
    m_originalLimit = info.limit;
    m_originalWindowMs = std::max<qint64>(info.windowInNowUnits / std::max<qint64>(info.nowUnitsPerMs, 1), 1);
    const QLocale locale;
    auto* intro = new QLabel(tr("Requests %1 to %2 fired again on Redis with the same timestamps and users, on new "
                                "keys that first hold the ZSET as it was before request %1. The original run stays "
                                "on the left; the what-if runs on the right.")
                                 .arg(locale.toString(from + 1), locale.toString(recording.requests())),
                             this);
    intro->setWordWrap(true);
    m_limiter = new QComboBox(this);
    m_limiter->setObjectName(QStringLiteral("forkLimiter"));
    for (const LimiterRef& limiter : LimiterCatalog::all())
        m_limiter->addItem(limiter->displayName(), limiter->id);
    const int current = m_limiter->findData(info.limiter);
    m_limiter->setCurrentIndex(std::max(current, 0));
    m_limit = new QSpinBox(this);
    m_limit->setObjectName(QStringLiteral("forkLimit"));
    m_limit->setRange(0, INT_MAX);
    m_limit->setSpecialValueText(tr("none"));
    m_limit->setValue(int(std::clamp<qint64>(info.limit, 0, INT_MAX)));
    m_window = new QSpinBox(this);
    m_window->setObjectName(QStringLiteral("forkWindow"));
    m_window->setRange(1, INT_MAX);
    m_window->setSuffix(tr(" ms"));
    for (QSpinBox* box : {m_limit, m_window})
        box->setGroupSeparatorShown(true); // 1,000 ms, as the Burst panel writes it
    m_window->setValue(int(std::clamp<qint64>(m_originalWindowMs, 1, INT_MAX)));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Fire the what-if"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* form = new QFormLayout(this);
    form->addRow(intro);
    form->addRow(tr("Limiter:"), m_limiter);
    form->addRow(tr("Limit:"), m_limit);
    form->addRow(tr("Window:"), m_window);
    form->addRow(buttons);
}

ForkChange ForkDialog::change() const
{
    ForkChange change;
    const QString id = m_limiter->currentData().toString();
    if (id != m_originalLimiter)
        change.limiter = LimiterCatalog::find(id);
    if (m_limit->value() != m_originalLimit)
        change.limit = m_limit->value();
    if (m_window->value() != m_originalWindowMs)
        change.windowMs = m_window->value();
    return change;
}

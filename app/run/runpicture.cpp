#include "runpicture.h"

#include "charts/countschart.h"
#include "replay/recording.h"
#include "run/runcursor.h"
#include "run/runmodel.h"
#include "runview.h"
#include "transportbar.h"
#include "zsetpanel.h"

#include <QCoreApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

RunPicture::RunPicture(const QVector<Side>& sides, QSize size, QWidget* parent)
    : QWidget(parent)
{
    setAttribute(Qt::WA_DontShowOnScreen); // drawn for files, never on the screen
    setObjectName(QStringLiteral("RunPicture"));
    setAutoFillBackground(true);
    auto* layout = new QVBoxLayout(this);
    m_caption = new QLabel(this);
    m_caption->setWordWrap(true);
    QFont bold = font();
    bold.setBold(true);
    bold.setPointSizeF(font().pointSizeF() * 1.15);
    m_caption->setFont(bold);
    layout->addWidget(m_caption);
    auto* row = new QHBoxLayout;
    for (const Side& side : sides) {
        auto* model = new RunModel(this);
        model->setTitle(side.title);
        auto* view = new RunView(model, this); // before the recording: it draws what the model sends
        view->setForPictures(true);
        view->counts()->setLegendShown(m_views.isEmpty()); // one legend for both sides
        model->showRecording(side.recording);
        row->addWidget(view, 3);
        m_models << model;
        m_views << view;
    }
    m_zset = new ZsetPanel(this);
    row->addWidget(m_zset, sides.size() > 1 ? 2 : 1);
    layout->addLayout(row, 1);
    // Smaller than the run's views need (a small GIF): laid out larger and drawn down to the size.
    m_size = size;
    const QSize needed = minimumSizeHint();
    const double larger = std::max({1.0, double(needed.width()) / std::max(size.width(), 1),
                                    double(needed.height()) / std::max(size.height(), 1)});
    resize((QSizeF(size) * larger).toSize().expandedTo(needed));
    show(); // laid out at its size, off the screen
}

RunPicture::~RunPicture() = default;

int RunPicture::requests() const
{
    return m_models.isEmpty() ? 0 : m_models.first()->cursor()->requests();
}

QString RunPicture::caption() const
{
    return m_caption->text();
}

QImage RunPicture::at(int request)
{
    for (RunModel* model : std::as_const(m_models))
        model->cursor()->setPosition(std::min(request, model->cursor()->requests() - 1));
    if (!m_models.isEmpty()) {
        const RunCursor* cursor = m_models.first()->cursor();
        // A frame shows a screenful of the ZSET: its first members, not millions.
        const ReplayState state = cursor->recording()->stateAt(cursor->position(), true, membersDrawn);
        m_caption->setText(TransportBar::caption(state));
        m_zset->showState(state,
                          tr("%1 · after request %L2 of %L3")
                              .arg(QString::fromUtf8(state.key))
                              .arg(state.request)
                              .arg(state.requests));
    }
    QCoreApplication::sendPostedEvents(); // the views take the cursor and lay out
    const QImage picture = grab().toImage();
    return picture.size() == m_size ? picture : picture.scaled(m_size, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
}

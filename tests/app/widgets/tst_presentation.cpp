#include "burst/planmodel.h"
#include "chartlabels.h"
#include "charts/chartlook.h"
#include "charts/countschart.h"
#include "charts/timelineview.h"
#include "mainwindow.h"
#include "offscreenscreen.h"
#include "redis/serversession.h"
#include "run/burstpanel.h"
#include "run/numberspanel.h"
#include "run/runview.h"
#include "sourcetree.h"
#include "testredis.h"
#include "testsettings.h"
#include "widgets/language.h"
#include "widgets/pictureexport.h"
#include "widgets/presentation.h"

#include <QChart>
#include <QGraphicsTextItem>
#include <QLegend>
#include <QValueAxis>
#include <QtTest>

class TestPresentation : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void cleanup();
    void zoomScalesPanelsAndCharts();
    void zoomIsBounded();
    void presenterModeIsFullScreenAndLarger();
    void highContrastReachesTheCharts();
    void legendLabelsAreNotCutShort_data();
    void legendLabelsAreNotCutShort();

private:
    double axisLabelSize() const
    {
        auto* chart = m_window->runView(LimiterExperiment::Left)->counts()->chart();
        return static_cast<QValueAxis*>(chart->axes(Qt::Vertical).constFirst())->labelsFont().pointSizeF();
    }
    std::unique_ptr<MainWindow> m_window;
};

void TestPresentation::initTestCase()
{
    TestSettings::keepToThisRun();
}

void TestPresentation::init()
{
    m_window = std::make_unique<MainWindow>();
    m_window->resize(1400, 860);
    m_window->show();
}

void TestPresentation::cleanup()
{
    m_window->presentation()->setHighContrast(false);
    m_window->presentation()->resetZoom();
    m_window.reset();
}

void TestPresentation::zoomScalesPanelsAndCharts()
{
    NumbersPanel* numbers = m_window->runView(LimiterExperiment::Left)->numbers();
    const double figure = numbers->figurePointSize();
    const double panel = m_window->burstPanel()->font().pointSizeF();
    const double axis = axisLabelSize();
    m_window->presentation()->zoomIn();
    m_window->presentation()->zoomIn();
    QTRY_VERIFY(numbers->figurePointSize() > figure * 1.2);
    QVERIFY(m_window->burstPanel()->font().pointSizeF() > panel * 1.2);
    QVERIFY2(axisLabelSize() > axis * 1.2, qPrintable(QStringLiteral("%1 -> %2").arg(axis).arg(axisLabelSize())));
    // The timeline's margins grow too: the tick labels and the caption under them keep their room.
    TimelineView* timeline = m_window->runView(LimiterExperiment::Left)->timeline();
    const QFontMetrics metrics(timeline->font());
    QVERIFY(timeline->plotArea().top() >= metrics.height());
    QVERIFY(timeline->height() - timeline->plotArea().bottom() >= 2 * metrics.height());
    QVERIFY(timeline->plotArea().left() >= 2 * metrics.height());
    m_window->presentation()->resetZoom();
    QTRY_COMPARE(numbers->figurePointSize(), figure);
    QCOMPARE(axisLabelSize(), axis);
}

void TestPresentation::zoomIsBounded()
{
    QSignalSpy limited(m_window->presentation(), &Presentation::zoomLimited);
    for (int i = 0; i < 30; ++i)
        m_window->presentation()->zoomIn();
    // 3x at most, and less when the screen is full first (the window stays on it).
    const double zoom = m_window->presentation()->zoom();
    QVERIFY2(qFuzzyCompare(zoom, 3.0) || (zoom < 3.0 && limited.count() > 0), qPrintable(QString::number(zoom)));
    // On the screen, at once or after WindowFit's second look (a panel that measures its text
    // once laid out can push the window past the screen a moment after the zoom step).
    QTRY_VERIFY_WITH_TIMEOUT(m_window->screen()->availableGeometry().contains(m_window->frameGeometry()), 2000);
    for (int i = 0; i < 30; ++i)
        m_window->presentation()->zoomOut();
    QCOMPARE(m_window->presentation()->zoom(), 0.6);
}

void TestPresentation::presenterModeIsFullScreenAndLarger()
{
    Presentation* presentation = m_window->presentation();
    presentation->setPresenting(true);
    QVERIFY(m_window->windowState() & Qt::WindowFullScreen);
    QVERIFY(presentation->zoom() >= 1.5);
    presentation->setPresenting(false);
    QVERIFY(!(m_window->windowState() & Qt::WindowFullScreen));
    QCOMPARE(presentation->zoom(), 1.0);
}

void TestPresentation::highContrastReachesTheCharts()
{
    CountsChart* counts = m_window->runView(LimiterExperiment::Left)->counts();
    m_window->presentation()->setHighContrast(true);
    QTRY_COMPARE(counts->chart()->theme(), QChart::ChartThemeDark);
    QCOMPARE(m_window->palette().color(QPalette::Window), QColor(0, 0, 0));
    QVERIFY(Presentation::isDark(m_window->palette()));
    if (qEnvironmentVariableIsSet("ZSETLAB_SCREENSHOT")) {
        RedisServerChoice::Request request;
        request.url = TestRedis::endpoint().displayUrl();
        m_window->connectToServer(request);
        QTRY_VERIFY_WITH_TIMEOUT(m_window->session()->isUsable(), 10000);
        Scenario scenario;
        QString error;
        QVERIFY(Scenario::load(sourcePath(QStringLiteral("resources/scenarios/compare.json")), &scenario, &error));
        m_window->applyScenario(scenario);
        m_window->presentation()->setZoom(1.3);
        QSignalSpy done(m_window->experiment(), &LimiterExperiment::allFinished);
        m_window->fire();
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 60000);
        QVERIFY(PictureExport::writePng(m_window.get(), qEnvironmentVariable("ZSETLAB_SCREENSHOT"), 1, &error));
    }
    m_window->presentation()->setHighContrast(false);
    QTRY_COMPARE(counts->chart()->theme(), QChart::ChartThemeLight);
}

void TestPresentation::legendLabelsAreNotCutShort_data()
{
    QTest::addColumn<QString>("language");
    QTest::addColumn<double>("zoom");
    for (const char* language : {"en", "vi"}) {
        QTest::addRow("%s", language) << QString::fromLatin1(language) << 1.0;
        QTest::addRow("%s, zoomed", language) << QString::fromLatin1(language) << 1.3;
    }
}

void TestPresentation::legendLabelsAreNotCutShort()
{
    // Compare mode halves the counts charts' width; longer Vietnamese labels and a presenter's
    // zoom must still leave every legend label whole.
    QFETCH(QString, language);
    QFETCH(double, zoom);
    QVERIFY(Language::set(language));
    m_window->planModel()->edit([](ExperimentPlan& plan) { plan.compare = true; });
    m_window->presentation()->setZoom(zoom);
    QLegend* legend = m_window->runView(LimiterExperiment::Left)->counts()->chart()->legend();
    const auto whole = [legend] {
        const QStringList labels = drawnLegendLabels(legend);
        return labels.size() >= 5 && std::none_of(labels.begin(), labels.end(), isCutShort);
    };
    QTRY_VERIFY2(whole(), qPrintable(drawnLegendLabels(legend).join(QStringLiteral(" | "))));
    QVERIFY(legend->font().pointSizeF() >= (ChartLook::smallestLegendScale - 0.01)
                * m_window->runView(LimiterExperiment::Left)->counts()->font().pointSizeF());
    QVERIFY(Language::set(QStringLiteral("en")));
}

// A desktop screen: the window may grow with its text until the screen is full.
ZSETLAB_TEST_MAIN_ON_SCREEN(TestPresentation, QSize(1920, 1080))
#include "tst_presentation.moc"

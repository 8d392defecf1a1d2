//! The page in Simplified Chinese: every [`Key`] and the presets' cards. Reached only through the
//! page's `zh` chunk (`app::lang`), so an English visit never fetches it.
//!
//! Written to read as a Chinese teacher would say it on a classroom screen, not word for word:
//! 轮 for a turn, 发言 for a speech, 全班 for the class in a seat.

use super::{Key, Lang, Table};

/// The table the page installs with [`super::speak`].
pub const TABLE: Table = Table { lang: Lang::ZhHans, say, card };

/// Latin words the Chinese keeps on purpose: names of things a reader types, presses or looks up.
pub const KEPT_LATIN: &[&str] = &["AI", "AutoGen", "Esc", "CSV", "JSON"];

fn say(what: Key) -> &'static str {
    match what {
        Key::Tagline => "多智能体对话模拟，每一个决定都看得见。",
        Key::LanguageSwitch => "语言",
        Key::LanguageSwitchTitle => "页面语言，保存在这台设备上（页面会重新加载；进行中的运行会保留并暂停）",
        Key::Scenarios => "场景",
        Key::PickScenario => "选择一个场景",
        Key::Opening => "正在打开…",
        Key::TryAgain => "重试",
        Key::Unfetched => "应用的其余部分没能下载下来：请检查网络连接，然后重试。",
        Key::OpenScenario => "打开“{title}”",
        Key::PastRuns => "以往的运行",
        Key::PastRunsEmpty => "你运行过的对话会保存在这里（最近 {n} 次），可以回放或接着运行。",
        Key::PastBatch => " {method} · 一批 {n} 次运行 · {saved}",
        Key::PastComparison => " {method} · {n} 列 · {saved}",
        Key::PastRun => " {method} · {turns} 轮 · {ended} · {saved}",
        Key::PastUnfinished => "未完成",
        Key::PastOpen => "打开",
        Key::PastReplay => "回放",
        Key::PastDelete => "删除",
        Key::PastDeleteLabel => "删除“{title}”的运行",
        Key::PastCouldNotOpen => "无法打开：{why}。",
        Key::PastUnreadable => "{why}；保持原样未动。",
        Key::OpenSavedRun => "打开保存的运行",
        Key::OpenSavedRunTitle => "从本页面保存的运行或比较、锦标赛的 CSV 或 JSON 文件，或一个 AutoGen 团队",
        Key::ModelDemo => "模型：离线演示（无需密钥）",
        Key::ModelDemoShort => "演示模型",
        Key::ModelNamed => "模型：{model} · {provider}",
        Key::InThisBrowser => "在本浏览器中运行",
        Key::MethodRoundRobin => "轮流发言",
        Key::MethodRandom => "随机点名",
        Key::MethodBidding => "竞价发言",
        Key::MethodDirector => "导演主持",
        Key::MethodHandoff => "交接发言",
        Key::MethodSelector => "模型点名",
        Key::MethodNegotiation => "谈判游戏",
        Key::BackToScenarios => "\u{2190} 场景",
        Key::BackToScenariosTitle => "所有场景和以往的运行（屏幕上的运行保持原样）",
        Key::RunControls => "运行控制",
        Key::Run => "运行",
        Key::Resume => "继续",
        Key::Play => "播放",
        Key::Pause => "暂停",
        Key::Step => "单步",
        Key::Stop => "停止",
        Key::Reset => "重置",
        Key::UndoAnswer => "撤回我上一次的回答",
        Key::UndoAnswerTitle => "回到你上一次作答那一步的开头，重新作答（原来的运行保留在以往的运行中）",
        Key::StepBack => "后退一步",
        Key::StepBackTitle => "回放后退一步（投影视图中按 \u{2190}）",
        Key::ContinueLive => "从这里继续实时运行",
        Key::ContinueLiveTitle => "从屏幕上这一步起，用模型接着运行，作为一次新的实时运行",
        Key::Speed => "速度",
        Key::SpeedReadAloud => "朗读：每分钟 150 词",
        Key::SpeedSlow => "慢：每轮约 2 秒",
        Key::SpeedQuick => "较快：每轮约 1 秒",
        Key::SpeedFast => "快：每次调用 0.1 秒",
        Key::SpeedInstant => "即时",
        Key::Share => "分享",
        Key::ShareTitle => "链接、保存和打开文件",
        Key::Projector => "投影视图",
        Key::ProjectorLeave => "退出投影视图",
        Key::ProjectorTitle => {
            "给全班看的大字视图（P）；\u{2192} 单步，回放中 \u{2190} 后退一步，空格键播放，Esc 退出"
        }
        Key::RunRegion => "运行",
        Key::Decisions => "决定",
        Key::TabScenario => "场景",
        Key::TabClass => "全班",
        Key::TabFiles => "分享与文件",
        Key::TabStats => "统计",
        Key::TabJudge => "评审",
        Key::TabBatch => "批量",
        Key::TabCompare => "比较",
        Key::TabInspector => "检查器",
        Key::TabsLabel => "舞台旁的面板",
        Key::ClosePanel => "关闭面板",
        Key::Transcript => "对话记录",
        Key::MessagesOne => "（1 条发言）",
        Key::MessagesMany => "（{n} 条发言）",
        Key::CharacterDescriptions => "角色介绍（{n}）",
        Key::EmptyCompare => "按“全部播放”或“全部单步”开始这几场对话。",
        Key::EmptyReplay => "按“播放”或“单步”观看录下的对话。",
        Key::EmptyRunning => "对话从第一次发言开始。",
        Key::TurnN => "第 {turn} 轮",
        Key::You => "你",
        Key::JudgeScore => "评审 {mean} 分",
        Key::GameN => "第 {n} 局",
        Key::SentAsIs => "发送的原文",
        Key::KindInjected => "场外发言",
        Key::KindIncomplete => "不完整",
        Key::KindRefused => "被拒绝",
        Key::KindFiltered => "被过滤",
        Key::KindEmpty => "空白",
        Key::KindUnanswered => "未作答",
        Key::PanelLoading => "正在加载这个面板…",
        Key::PanelFailed => "这个面板没能下载下来：请检查网络连接，然后再次打开这个标签页。",
        Key::StatusReady => "就绪",
        Key::StatusPausedAfterError => "出错后已暂停 · 第 {turn} 轮 · 按“继续”或“单步”重新进行出错的这一轮",
        Key::StatusFinishedWhy => "第 {turn} 轮后结束：{why}",
        Key::StatusFinished => "第 {turn} 轮后结束",
        Key::StatusWaiting => "等你作答 · 第 {turn} 轮",
        Key::StatusRunning => "运行中 · 第 {turn} 轮",
        Key::StatusPaused => "已暂停 · 第 {turn} 轮",
        Key::StatusReplay => "{state} · 回放",
        Key::BeforeRunStart => "按“运行”或“单步”开始对话。",
        Key::BeforeRunOne => "全班扮演 {name}：每次轮到 {name} 发言，舞台都会请全班作答。",
        Key::BeforeRunMany => "全班扮演 {names} 和 {last}：每次轮到其中一位发言，舞台都会请全班作答。",
        Key::TheSelector => "点名者",
        Key::TwoSentences => "{first}{second}",
        Key::ListComma => "、",
        Key::FinishTurnLimit => "已到轮数上限",
        Key::FinishDirector => "导演结束了节目",
        Key::FinishGameOver => "所有对局都已结束",
        Key::FinishStopped => "已停止",
        Key::FinishError => "运行因出错而结束",
    }
}

fn card(id: &str) -> Option<(&'static str, &'static str)> {
    Some(match id {
        "rail-debate" => (
            "总统辩论：横贯美国的高速铁路",
            "三位候选人竞价争取发言权：谁认为上一条发言最自相矛盾，谁就接着发言。",
        ),
        "arms-debate" => (
            "总统辩论：美国应该向以色列输送武器吗？",
            "同样的竞价发言，换了三位候选人，每次发言限 20 个词，共 9 轮。",
        ),
        "ai-morality-handoff" => (
            "交接辩论：AI 可以做道德决定吗？",
            "正方、反方和中立方辩论：在人们意见不一的问题上，AI 能否做道德决定；每位发言者在结尾点名下一位（写作“Transition to ...”）。",
        ),
        "daily-show-director" => (
            "《每日秀》：竞技静坐大赛",
            "主持人导演整场节目：他点评、按编号挑选下一位记者并向其提问，每轮抽签决定节目是否结束。",
        ),
        "town-hall-selector" => (
            "市民大会：学校改为每周上课四天",
            "校长、老师、家长和学生争论每周四天上课制；每轮开始前，由一个模型读完对话，点名下一位发言者，做法同 AutoGen 的 SelectorGroupChat。",
        ),
        "trading-game" => (
            "谈判竞技场：Alice 和 Bob 交易资源",
            "两位玩家在严格的规则下交易木材（WOOD）、石头（STONE）和黄金（GOLD）；每局结束后，优化器根据总分改写他们的提示词。",
        ),
        "rail-debate-random" => (
            "总统辩论：随机抽取发言者",
            "同一场高铁辩论，但没有人决定谁发言：每轮从上一位以外的候选人中随机抽一位（运行种子相同，抽到的也相同），同 AutoGen 的随机点名。用作衡量竞价发言的基准。",
        ),
        _ => return None,
    })
}

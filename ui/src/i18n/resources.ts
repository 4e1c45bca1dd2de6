// Every string of the UI, per language and namespace (one namespace per area of the UI, named
// after its folder under src/; `app` for App.tsx and main.tsx, `onboarding` for the first run,
// `problems` for the engine's typed failures, worded by problem.ts).
// English is the source: its files define the keys, and the types (i18next.d.ts) make a key
// missing from English a compile error. locales.test.ts fails when another language misses a
// key, a plural form or a placeholder.
import enApp from "./locales/en/app.json";
import enAbout from "./locales/en/about.json";
import enAnswering from "./locales/en/answering.json";
import enAsks from "./locales/en/asks.json";
import enCommon from "./locales/en/common.json";
import enCompletion from "./locales/en/completion.json";
import enConsole from "./locales/en/console.json";
import enContent from "./locales/en/content.json";
import enCheck from "./locales/en/check.json";
import enDiff from "./locales/en/diff.json";
import enFeedback from "./locales/en/feedback.json";
import enKeyboard from "./locales/en/keyboard.json";
import enEvals from "./locales/en/evals.json";
import enLoad from "./locales/en/load.json";
import enSkills from "./locales/en/skills.json";
import enMcpApps from "./locales/en/mcpApps.json";
import enModels from "./locales/en/models.json";
import enNetwork from "./locales/en/network.json";
import enOauth from "./locales/en/oauth.json";
import enOnboarding from "./locales/en/onboarding.json";
import enOverview from "./locales/en/overview.json";
import enPlayground from "./locales/en/playground.json";
import enPrompts from "./locales/en/prompts.json";
import enProblems from "./locales/en/problems.json";
import enRecordings from "./locales/en/recordings.json";
import enRequests from "./locales/en/requests.json";
import enResources from "./locales/en/resources.json";
import enSaved from "./locales/en/saved.json";
import enServer from "./locales/en/server.json";
import enSettings from "./locales/en/settings.json";
import enSidebar from "./locales/en/sidebar.json";
import enState from "./locales/en/state.json";
import enTasks from "./locales/en/tasks.json";
import enTools from "./locales/en/tools.json";
import enTimeline from "./locales/en/timeline.json";
import enTraffic from "./locales/en/traffic.json";
import zhApp from "./locales/zh-Hans/app.json";
import zhAbout from "./locales/zh-Hans/about.json";
import zhAnswering from "./locales/zh-Hans/answering.json";
import zhAsks from "./locales/zh-Hans/asks.json";
import zhCommon from "./locales/zh-Hans/common.json";
import zhCompletion from "./locales/zh-Hans/completion.json";
import zhConsole from "./locales/zh-Hans/console.json";
import zhContent from "./locales/zh-Hans/content.json";
import zhCheck from "./locales/zh-Hans/check.json";
import zhDiff from "./locales/zh-Hans/diff.json";
import zhFeedback from "./locales/zh-Hans/feedback.json";
import zhKeyboard from "./locales/zh-Hans/keyboard.json";
import zhEvals from "./locales/zh-Hans/evals.json";
import zhLoad from "./locales/zh-Hans/load.json";
import zhSkills from "./locales/zh-Hans/skills.json";
import zhMcpApps from "./locales/zh-Hans/mcpApps.json";
import zhModels from "./locales/zh-Hans/models.json";
import zhNetwork from "./locales/zh-Hans/network.json";
import zhOauth from "./locales/zh-Hans/oauth.json";
import zhOnboarding from "./locales/zh-Hans/onboarding.json";
import zhOverview from "./locales/zh-Hans/overview.json";
import zhPlayground from "./locales/zh-Hans/playground.json";
import zhPrompts from "./locales/zh-Hans/prompts.json";
import zhProblems from "./locales/zh-Hans/problems.json";
import zhRecordings from "./locales/zh-Hans/recordings.json";
import zhRequests from "./locales/zh-Hans/requests.json";
import zhResources from "./locales/zh-Hans/resources.json";
import zhSaved from "./locales/zh-Hans/saved.json";
import zhServer from "./locales/zh-Hans/server.json";
import zhSettings from "./locales/zh-Hans/settings.json";
import zhSidebar from "./locales/zh-Hans/sidebar.json";
import zhState from "./locales/zh-Hans/state.json";
import zhTasks from "./locales/zh-Hans/tasks.json";
import zhTools from "./locales/zh-Hans/tools.json";
import zhTimeline from "./locales/zh-Hans/timeline.json";
import zhTraffic from "./locales/zh-Hans/traffic.json";

export const resources = {
  en: {
    app: enApp,
    about: enAbout,
    answering: enAnswering,
    asks: enAsks,
    common: enCommon,
    completion: enCompletion,
    console: enConsole,
    content: enContent,
    check: enCheck,
    diff: enDiff,
    feedback: enFeedback,
    keyboard: enKeyboard,
    load: enLoad,
    evals: enEvals,
    skills: enSkills,
    mcpApps: enMcpApps,
    models: enModels,
    network: enNetwork,
    oauth: enOauth,
    onboarding: enOnboarding,
    overview: enOverview,
    playground: enPlayground,
    prompts: enPrompts,
    problems: enProblems,
    recordings: enRecordings,
    requests: enRequests,
    resources: enResources,
    saved: enSaved,
    server: enServer,
    settings: enSettings,
    sidebar: enSidebar,
    state: enState,
    tasks: enTasks,
    tools: enTools,
    timeline: enTimeline,
    traffic: enTraffic,
  },
  "zh-Hans": {
    app: zhApp,
    about: zhAbout,
    answering: zhAnswering,
    asks: zhAsks,
    common: zhCommon,
    completion: zhCompletion,
    console: zhConsole,
    content: zhContent,
    check: zhCheck,
    diff: zhDiff,
    feedback: zhFeedback,
    keyboard: zhKeyboard,
    load: zhLoad,
    evals: zhEvals,
    skills: zhSkills,
    mcpApps: zhMcpApps,
    models: zhModels,
    network: zhNetwork,
    oauth: zhOauth,
    onboarding: zhOnboarding,
    overview: zhOverview,
    playground: zhPlayground,
    prompts: zhPrompts,
    problems: zhProblems,
    recordings: zhRecordings,
    requests: zhRequests,
    resources: zhResources,
    saved: zhSaved,
    server: zhServer,
    settings: zhSettings,
    sidebar: zhSidebar,
    state: zhState,
    tasks: zhTasks,
    tools: zhTools,
    timeline: zhTimeline,
    traffic: zhTraffic,
  },
} as const;

export type Namespace = keyof (typeof resources)["en"];

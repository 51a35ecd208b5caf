/**
 * A ready catalogue of executables commonly forbidden during a contest (issue of the first catalogue
 * screens): browsers, chat and social apps, remote desktop, screen recorders, AI assistants. Windows
 * names with `.exe` and their usual Linux names; the agent matches ignoring case and `.exe`.
 */
export const COMMON_FORBIDDEN_PROCESSES: readonly string[] = [
  // Browsers
  'chrome.exe',
  'msedge.exe',
  'firefox.exe',
  'opera.exe',
  'brave.exe',
  'vivaldi.exe',
  'iexplore.exe',
  'chromium',
  'google-chrome',
  'firefox',
  // Chat and social
  'Discord.exe',
  'Telegram.exe',
  'WhatsApp.exe',
  'slack.exe',
  'Teams.exe',
  'ms-teams.exe',
  'Zoom.exe',
  'Skype.exe',
  'Messenger.exe',
  'Signal.exe',
  'discord',
  'telegram-desktop',
  'slack',
  'zoom',
  // Remote desktop
  'AnyDesk.exe',
  'TeamViewer.exe',
  'RustDesk.exe',
  'mstsc.exe',
  'vncviewer.exe',
  'anydesk',
  'teamviewer',
  'rustdesk',
  'remmina',
  // Screen recorders and capture
  'obs64.exe',
  'obs32.exe',
  'bdcam.exe',
  'CamtasiaStudio.exe',
  'ShareX.exe',
  'obs',
  'simplescreenrecorder',
  // AI assistants
  'ChatGPT.exe',
  'Copilot.exe',
  'Claude.exe',
  'Gemini.exe',
  'Cursor.exe',
  'cursor',
];

// Where a toast's link takes the user: the frame that answered a call, the last frame, or the
// stderr of its server. The frame is asked of the engine at the click, so it is the newest one.
import type { TrafficFilter } from "../bindings/TrafficFilter";
import { answerFilter, type ToastLink } from "../feedback/toasts";
import { ipc } from "../ipc";
import { select } from "../state/connections";
import { ALL_FRAMES } from "../traffic/filter";
import { setTab, showFrame } from "./view";

/** A toast's link: the frame that answered, the last frame, or the stderr, of its server. */
export function followToastLink(link: ToastLink): void {
  const id = link.serverId;
  select(id);
  if (link.to === "console") {
    setTab(id, "console");
    return;
  }
  void (link.to === "answer" ? answerFrame(id, link.method, link.sinceUs) : lastFrame(id)).then(
    (seq) => {
      if (seq === null) setTab(id, "traffic");
      else showFrame(id, seq);
    },
    () => setTab(id, "traffic"),
  );
}

/** The last row `filter` keeps in the server's record, asked of the engine; null when none. */
async function lastMatching(serverId: string, filter: TrafficFilter): Promise<number | null> {
  const count = await ipc.trafficCount(serverId, filter);
  if (count === 0) return null;
  const [row] = await ipc.trafficWindow(serverId, filter, count - 1, 1, count);
  return row?.seq ?? null;
}

/** The last frame of the record. */
const lastFrame = (serverId: string): Promise<number | null> => lastMatching(serverId, ALL_FRAMES);

/** The newest response to `method` recorded since `sinceUs` (what a toast about a call links to). */
const answerFrame = (serverId: string, method: string, sinceUs: number): Promise<number | null> =>
  lastMatching(serverId, answerFilter(method, sinceUs));

// Model providers (Settings → Models), their keys (sent once, never read back), Test, and
// sampling drafts by a configured model.
import { Channel, invoke } from "@tauri-apps/api/core";
import type { Draft } from "../bindings/Draft";
import type { DraftEvent } from "../bindings/DraftEvent";
import type { KeyChange } from "../bindings/KeyChange";
import type { ModelProbe } from "../bindings/ModelProbe";
import type { Provider } from "../bindings/Provider";
import type { ProviderView } from "../bindings/ProviderView";

export const modelsIpc = {
  modelsList: () => invoke<ProviderView[]>("models_list"),
  modelsSave: (provider: Provider, key: KeyChange) => invoke<ProviderView[]>("models_save", { provider, key }),
  modelsRemove: (id: string) => invoke<ProviderView[]>("models_remove", { id }),
  modelsTest: (id: string) => invoke<ModelProbe>("models_test", { id }),
  samplingDraft: (askId: number, onEvent: (event: DraftEvent) => void) => {
    const channel = new Channel<DraftEvent>();
    channel.onmessage = onEvent;
    return invoke<Draft>("sampling_draft", { askId, onEvent: channel });
  },
};

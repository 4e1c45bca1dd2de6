// The configured model providers, as the Rust side last listed them: the sampling panel's
// "Draft with …" and the playground's model picker read them; Settings → Models refreshes them.
import type { ProviderView } from "../bindings/ProviderView";
import { errorMessage, modelsIpc } from "../ipc";
import { Notifier, useNotifier } from "../state/notifier";

interface ModelsState {
  /** null until listed once. */
  providers: ProviderView[] | null;
  error: string | null;
}

const models = new Notifier<ModelsState>({ providers: null, error: null });

export function setProviders(providers: ProviderView[]): void {
  models.update((s) => ({ ...s, providers, error: null }));
}

/** Lists the providers (once per call; cheap: one small file). */
export async function loadProviders(): Promise<void> {
  try {
    const listed = await modelsIpc.modelsList();
    setProviders(Array.isArray(listed) ? listed : []);
  } catch (e) {
    models.update((s) => ({ ...s, error: errorMessage(e) }));
  }
}

export function useProviders(): ProviderView[] | null {
  return useNotifier(models, (s) => s.providers);
}

/** The provider used when none is named: the default, else the first. */
export function defaultProvider(providers: ProviderView[] | null): ProviderView | null {
  if (!providers || providers.length === 0) return null;
  return providers.find((p) => p.provider.default) ?? providers[0] ?? null;
}

import { Brain, Building2, Globe, Landmark, MapPin, Server, Zap, type LucideIcon } from '../../../components/icons'
import { useTranslation } from 'react-i18next'
import { Badge } from '../../../components/ui/badge'
import { cn } from '../../../lib/cn'
import type { HostingRegion, PermittedModel } from '../api'

const REGION_ICONS: Record<HostingRegion, LucideIcon> = {
  de: MapPin,
  eu: Landmark,
  us: Globe,
  selfHosted: Server,
  sovereignCloud: Building2,
}

/** Where a provider processes data, as a small labelled badge. */
export function RegionBadge(props: { region: HostingRegion; className?: string }) {
  const { t } = useTranslation('models')
  const Icon = REGION_ICONS[props.region]
  const label = t(`chat:regions.${props.region}`)
  return (
    <Badge className={cn('gap-1', props.className)} title={t('regionLabel', { region: label })}>
      <Icon aria-hidden className="size-3" />
      <span className="sr-only">{t('regionLabel', { region: '' })}</span>
      {label}
    </Badge>
  )
}

type Flags = Pick<PermittedModel, 'streaming' | 'reasoning' | 'embedding'>

const FLAG_ICONS = { streaming: Zap, reasoning: Brain, embedding: null } as const

/** Streaming / reasoning / embedding as small badges; nothing when a model has none. */
export function ModelFlags(props: { model: Flags; className?: string }) {
  const { t } = useTranslation('models')
  const flags = (['streaming', 'reasoning', 'embedding'] as const).filter((flag) => props.model[flag])
  if (flags.length === 0) return null
  return (
    <ul aria-label={t('flags.label')} className={cn('flex flex-wrap gap-1', props.className)}>
      {flags.map((flag) => {
        const Icon = FLAG_ICONS[flag]
        return (
          <li key={flag}>
            <Badge variant={flag === 'embedding' ? 'info' : 'neutral'} className="gap-1">
              {Icon && <Icon aria-hidden className="size-3" />}
              {t(`flags.${flag}`)}
            </Badge>
          </li>
        )
      })}
    </ul>
  )
}

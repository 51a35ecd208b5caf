import { memo, useEffect, useRef, useState } from 'react';
import { Badge, Box, Flex, Text } from '@chakra-ui/react';
import { TEAM_STATUS, type BoardTeam } from '@concurso/shared';

/** Props of {@link ProjectorRow}. */
export interface ProjectorRowProps {
  team: BoardTeam;
  /** 1-based place in its level. */
  place: number;
  /** The level's largest attempt count (bar scale). */
  maxAttempts: number;
}

/** How long a changed row stays highlighted (ms). */
export const HIGHLIGHT_MS = 1_600;

/**
 * One team on the projector: place, name, a bar proportional to its attempts, the count in large
 * type, and plain marks for a disqualified team or a silent agent. A row whose `version` changed while
 * on screen is highlighted (a yellow marker and count) for `HIGHLIGHT_MS`. Memoized: an event re-renders
 * only its own row.
 */
export const ProjectorRow = memo(function ProjectorRow({ team, place, maxAttempts }: ProjectorRowProps) {
  const disqualified = team.status_team.id !== TEAM_STATUS.active;
  const seenVersion = useRef(team.version);
  const [flash, setFlash] = useState(0);
  const [highlighted, setHighlighted] = useState(false);
  useEffect(() => {
    if (team.version === seenVersion.current) return;
    seenVersion.current = team.version;
    setFlash((n) => n + 1);
    setHighlighted(true);
  }, [team.version]);
  useEffect(() => {
    if (!highlighted) return;
    const timer = setTimeout(() => setHighlighted(false), HIGHLIGHT_MS);
    return () => clearTimeout(timer);
  }, [highlighted, flash]);

  const share = Math.min(1, team.number_attempts / maxAttempts);
  return (
    <Box
      data-testid={`projector-row-${team.id}`}
      data-status={team.status_team.id}
      data-flash={flash > 0 ? flash : undefined}
      data-highlighted={highlighted ? '' : undefined}
      position="relative"
      overflow="hidden"
      px="4"
      py="2"
      borderBottomWidth="1px"
      borderColor="whiteAlpha.200"
      // The row's layout and paint stay inside it: a changed row does not invalidate its neighbours.
      css={{ contain: 'layout paint' }}
      bg={disqualified ? 'red.900' : undefined}
    >
      {highlighted ? (
        // A narrow marker, not a whole-row colour: without a GPU every painted pixel costs, and at 100
        // changes per second a coloured row repainted on and off was most of the projector's long tasks.
        <Box position="absolute" insetY="0" insetStart="0" w="0.4em" bg="yellow.400" />
      ) : null}
      <Flex position="relative" align="center" gap="3">
        <Text w="2.2em" textAlign="end" color="whiteAlpha.700" fontSize="var(--projector-small)">
          {place}
        </Text>
        <Box flex="1" minW="0">
          <Flex align="center" gap="2">
            <Text
              fontSize="var(--projector-name)"
              fontWeight="semibold"
              truncate
              textDecoration={disqualified ? 'line-through' : undefined}
            >
              {team.name}
            </Text>
            {disqualified ? (
              <Badge colorPalette="red" variant="solid" fontSize="var(--projector-small)" flexShrink={0}>
                DESCALIFICADO
              </Badge>
            ) : null}
            {team.agent_online ? null : (
              <Badge colorPalette="gray" variant="solid" fontSize="var(--projector-small)" flexShrink={0}>
                agente sin conexión
              </Badge>
            )}
          </Flex>
          <Box h="0.45em" mt="1" bg="whiteAlpha.200" borderRadius="full" fontSize="var(--projector-name)">
            <Box
              h="full"
              borderRadius="full"
              bg={disqualified ? 'red.400' : 'orange.400'}
              style={{ width: `${share * 100}%` }}
            />
          </Box>
        </Box>
        <Text
          data-testid={`projector-attempts-${team.id}`}
          color={highlighted ? 'yellow.300' : undefined}
          minW="2.5ch"
          textAlign="end"
          fontSize="var(--projector-count)"
          fontWeight="bold"
          fontVariantNumeric="tabular-nums"
        >
          {team.number_attempts}
        </Text>
      </Flex>
    </Box>
  );
});

function tf = contains(str, pattern, varargin)
% MATLAB's contains (R2016b) for char rows and cell arrays of them; Octave 7 lacks it.
% contains(str, pattern) and contains(..., 'IgnoreCase', true); pattern may be a cellstr.
  ignore = numel(varargin) >= 2 && strcmpi(varargin{1}, 'IgnoreCase') && logical(varargin{2});
  if ~iscell(pattern)
    pattern = {pattern};
  end
  if iscell(str)
    tf = cellfun(@(s) contains(s, pattern, varargin{:}), str);
    return;
  end
  if ignore
    str = lower(str);
    pattern = lower(pattern);
  end
  tf = false;
  for k = 1:numel(pattern)
    if isempty(pattern{k}) || ~isempty(strfind(str, pattern{k}))
      tf = true;
      return;
    end
  end
end
